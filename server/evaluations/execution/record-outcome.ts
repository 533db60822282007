import { and, eq, sql } from "drizzle-orm";
import type { Database } from "@/server/db";
import { evaluationResults, evaluationScenarios } from "@/server/db/schema";
import { DEFAULT_MAX_RETRIES, DEFAULT_RETRY_DELAY_S, readRunData } from "../model/run-data";
import type { ResultRow, RunRow } from "../model/rows";
import { settleDependents } from "./cell-dependencies";
import { notifyEvaluationWorkers } from "./channel";
import type { CellOutcome } from "./invocation-outcome";
import { settleScenario } from "./settle";

export type Recorded = "released" | "retry" | "done" | "lost";

/** Seconds before attempt `attempts + 1`: the run's retry_delay, doubled per attempt, at most 5 min. */
export function retryDelayMs(run: RunRow, attempts: number): number {
  const base = readRunData(run.data).concurrency?.retry_delay ?? DEFAULT_RETRY_DELAY_S;
  return Math.min(300, base * 2 ** Math.max(0, attempts - 1)) * 1000;
}

/**
 * Writes a cell's outcome if this worker still holds its lease (the token): a stopped cell goes
 * back to the queue, a retryable failure is queued again after a backoff while attempts remain,
 * anything else is final. A final write releases or fails the evaluator cells waiting on it and,
 * when the scenario has nothing left to run, settles it. All in one transaction.
 */
export async function recordOutcome(
  db: Database,
  run: RunRow,
  cell: ResultRow,
  token: string,
  outcome: CellOutcome,
  now = new Date(),
): Promise<{ recorded: Recorded; scenarioSettled: boolean }> {
  const r = evaluationResults;
  const mine = and(eq(r.id, cell.id), eq(r.leaseToken, token), eq(r.status, "running"));
  const cleared = { leaseUntil: null, leaseToken: null, updatedAt: now };
  return db.transaction(async (tx) => {
    // Cells of one scenario record one at a time, so the last one sees the others and settles it.
    await tx
      .select({ id: evaluationScenarios.id })
      .from(evaluationScenarios)
      .where(eq(evaluationScenarios.id, cell.scenarioId))
      .for("update");
    if (outcome.status === "failure" && outcome.error.code === "cancelled") {
      const back = await tx
        .update(r)
        .set({ ...cleared, status: "queued", dueAt: now, attempts: sql`greatest(${r.attempts} - 1, 0)` })
        .where(mine)
        .returning({ id: r.id });
      return { recorded: back.length ? "released" : "lost", scenarioSettled: false };
    }
    const maxRetries = readRunData(run.data).concurrency?.max_retries ?? DEFAULT_MAX_RETRIES;
    if (outcome.status === "failure" && outcome.error.retryable && cell.attempts <= maxRetries) {
      const due = new Date(now.getTime() + retryDelayMs(run, cell.attempts));
      const back = await tx
        .update(r)
        .set({ ...cleared, status: "queued", dueAt: due, error: { ...outcome.error } })
        .where(mine)
        .returning({ id: r.id });
      return { recorded: back.length ? "retry" : "lost", scenarioSettled: false };
    }
    const final =
      outcome.status === "success"
        ? {
            status: "success",
            outputs: outcome.outputs ?? null,
            error: null,
            tokens: outcome.tokens ?? null,
            costUsd: outcome.costUsd ?? null,
          }
        : { status: "failure", error: { ...outcome.error }, outputs: null };
    const written = await tx
      .update(r)
      .set({ ...cleared, ...final, traceId: outcome.traceId ?? null, latencyMs: outcome.latencyMs, dueAt: null })
      .where(mine)
      .returning({ id: r.id });
    if (written.length === 0) return { recorded: "lost", scenarioSettled: false };
    // Only an invocation cell has cells waiting on it.
    const invocation = readRunData(run.data).steps.find((s) => s.key === cell.stepKey)?.type === "invocation";
    const released = invocation ? await settleDependents(tx, run, now, cell.scenarioId, outcome.status) : 0;
    if (released > 0) await notifyEvaluationWorkers(tx);
    const scenarioSettled = await settleScenario(tx, run, cell.scenarioId, now);
    return { recorded: "done", scenarioSettled };
  });
}
