import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { LoginView } from "@/components/auth";
import { firstParam, type SearchParams } from "@/components/search-params";
import { currentSession } from "@/app/server-session";
import { getApp } from "@/server/boot";
import { ownerExists } from "@/server/auth";

export const metadata: Metadata = { title: "Log in" };
export const dynamic = "force-dynamic";

/** Only same-site paths are followed after login, never another origin. */
function safeNext(value: string | undefined): string {
  return value?.startsWith("/") && !value.startsWith("//") ? value : "/";
}

export default async function LoginPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const next = safeNext(firstParam((await searchParams).next));
  if (await currentSession()) redirect(next);
  const { context } = await getApp();
  return (
    <LoginView ownerExists={await ownerExists(context.db)} signUpOpen={context.config.signUp === "open"} next={next} />
  );
}
