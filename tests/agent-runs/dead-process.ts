import { eq } from "drizzle-orm";
import { tables, type Database } from "@/server/db";

/**
 * A recorded run rewound to what a process that died right after recording it leaves: running,
 * nothing logged, its lease expired, so the sweep takes it over.
 */
export async function rewindToDeadProcess(db: Database, runId: string): Promise<void> {
  await db.delete(tables.agentRunEvents).where(eq(tables.agentRunEvents.runId, runId));
  await db
    .update(tables.agentRuns)
    .set({
      status: "running",
      stopReason: null,
      endedAt: null,
      usage: null,
      eventCount: 0,
      leaseOwner: "a-dead-process",
      leaseExpiresAt: new Date(Date.now() - 1),
    })
    .where(eq(tables.agentRuns.id, runId));
}
