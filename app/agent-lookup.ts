import { TRPCError } from "@trpc/server";
import { notFound } from "next/navigation";
import { serverCaller } from "@/app/server-session";
import { isUuid } from "@/shared/ids";

/**
 * Server components of the agent pages: the procedure's answer, or the designed not-found page
 * (status 404) when the id is malformed or names nothing in this project. Other failures go on to
 * the error boundary.
 */
export async function findOrNotFound<T>(
  ids: string[],
  load: (caller: Awaited<ReturnType<typeof serverCaller>>) => Promise<T>,
): Promise<T> {
  if (!ids.every(isUuid)) notFound();
  try {
    return await load(await serverCaller());
  } catch (error) {
    if (error instanceof TRPCError && (error.code === "NOT_FOUND" || error.code === "BAD_REQUEST")) notFound();
    throw error;
  }
}
