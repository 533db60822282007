import { and, eq, sql } from "drizzle-orm";
import type { Executor } from "@/server/db";
import { agentRuns } from "@/server/db/schema";

/** A running run's control row: the cancel a client asks for, the lease its driving process renews. */

/** Marks a running run for cancellation; returns false when it has already ended. */
export async function requestCancel(db: Executor, projectId: string, runId: string): Promise<boolean> {
  const rows = await db
    .update(agentRuns)
    .set({ cancelRequestedAt: sql`coalesce(${agentRuns.cancelRequestedAt}, now())` })
    .where(and(eq(agentRuns.projectId, projectId), eq(agentRuns.id, runId), eq(agentRuns.status, "running")))
    .returning({ id: agentRuns.id });
  return rows.length > 0;
}

/** Extends the lease of a run this process drives; returns whether a cancel was asked for meanwhile. */
export async function renewLease(
  db: Executor,
  runId: string,
  owner: string,
  leaseMs: number,
): Promise<{ cancelRequested: boolean } | undefined> {
  const [row] = await db
    .update(agentRuns)
    .set({ leaseExpiresAt: new Date(Date.now() + leaseMs) })
    .where(and(eq(agentRuns.id, runId), eq(agentRuns.leaseOwner, owner), eq(agentRuns.status, "running")))
    .returning({ cancelRequestedAt: agentRuns.cancelRequestedAt });
  return row ? { cancelRequested: row.cancelRequestedAt !== null } : undefined;
}
