import { and, eq, lte, max } from "drizzle-orm";
import type { AppContext } from "@/server/core/app-context";
import type { Database } from "@/server/db";
import { agentRunEvents, agentRuns } from "@/server/db/schema";
import { startWakeLoop, type BackgroundWorker } from "@/server/worker";
import { endRun } from "./run-store";
import { noticeRun, RUN_EVENTS_CHANNEL } from "./run-wakeups";

export const INTERRUPTED_MESSAGE =
  "The run was interrupted: the process running it stopped before the turn ended (its lease expired).";

/**
 * Ends the runs whose process died: a running run whose lease expired (no heartbeat for
 * AGENT_RUN_LEASE_MS) gets an error and a `done` with stop reason `interrupted` appended to its
 * log, and is ended `failed` with its `agents.runs.failed` event, so followers and reconnects
 * finish instead of waiting for a turn nobody drives. One transaction per run, the row locked
 * with SKIP LOCKED so two sweeping processes never end the same run twice.
 */
export async function sweepExpiredRuns(db: Database, limit: number, now = new Date()): Promise<number> {
  let swept = 0;
  for (; swept < limit; swept++) {
    const runId = await db.transaction(async (tx) => {
      const [row] = await tx
        .select({ id: agentRuns.id, traceId: agentRuns.traceId })
        .from(agentRuns)
        .where(and(eq(agentRuns.status, "running"), lte(agentRuns.leaseExpiresAt, now)))
        .limit(1)
        .for("update", { skipLocked: true });
      if (!row) return undefined;
      const [last] = await tx
        .select({ seq: max(agentRunEvents.lastSeq) })
        .from(agentRunEvents)
        .where(eq(agentRunEvents.runId, row.id));
      const seq = Number(last?.seq ?? 0);
      await tx.insert(agentRunEvents).values({
        runId: row.id,
        seq: seq + 1,
        lastSeq: seq + 2,
        events: [
          { type: "error", message: INTERRUPTED_MESSAGE },
          { type: "done", stopReason: "interrupted", traceId: row.traceId },
        ],
      });
      await endRun(tx, row.id, { stopReason: "interrupted", error: INTERRUPTED_MESSAGE, eventCount: seq + 2 });
      await noticeRun(tx, RUN_EVENTS_CHANNEL, row.id);
      return row.id;
    });
    if (!runId) break;
  }
  return swept;
}

export const runSweepWorker: BackgroundWorker = {
  name: "agent-run-sweep",
  start: (app: AppContext) =>
    startWakeLoop(
      "agent-run-sweep",
      () => sweepExpiredRuns(app.db, 50),
      Math.max(1_000, Math.floor(app.config.agentRuns.leaseMs / 2)),
    ),
  drain: (app, limit) => sweepExpiredRuns(app.db, limit),
};
