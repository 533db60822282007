import { headers } from "next/headers";
import { getApp } from "@/server/boot";
import { resolveSession } from "@/server/auth";
import { createCaller, createTRPCContext } from "@/server/trpc";

/** Server components: the signed-in visitor of this request, or null. */
export async function currentSession() {
  const { context } = await getApp();
  return resolveSession(context, await headers());
}

/** Server components call procedures in-process, as the signed-in visitor. */
export async function serverCaller() {
  const { context } = await getApp();
  return createCaller(await createTRPCContext(context, await headers()));
}

/** The origin people reach this app at: PUBLIC_URL, else the request's own host. */
export async function publicOrigin(): Promise<string> {
  const { context } = await getApp();
  if (context.config.publicUrl) return context.config.publicUrl;
  const h = await headers();
  const host = h.get("x-forwarded-host") ?? h.get("host") ?? "127.0.0.1:3000";
  const proto = h.get("x-forwarded-proto") ?? "http";
  return `${proto}://${host}`;
}
