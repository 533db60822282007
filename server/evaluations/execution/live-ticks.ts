import { and, eq, inArray, isNotNull, sql } from "drizzle-orm";
import { isAppError } from "@/server/core/errors";
import { logger } from "@/server/core/logger";
import type { Database, Executor } from "@/server/db";
import { evaluationResults, evaluationRuns } from "@/server/db/schema";
import { readRunData } from "../model/run-data";
import type { EvaluationRunRow } from "../model/rows";
import { notifyEvaluationWorkers } from "./channel";
import { liveWindow, type LiveWindow } from "./live-window";
import { checkLiveGraph } from "./live-graph";
import { emitRunEvent } from "./run-events";
import { sourceItems } from "./source-items";
import { mintScenarios } from "./start-run";

export interface TickResult {
  /** Live runs ticked. */
  runs: number;
  /** Scenarios minted over all of them. */
  scenarios: number;
  /** Runs closed because they can no longer run (a query revision gone or invalid). */
  closed: number;
  /** Runs whose tick failed (logged); the next tick retries their window. */
  failed: number;
}

const LIVE = and(
  eq(evaluationRuns.status, "running"),
  sql`${evaluationRuns.flags} @> '{"is_live": true, "is_active": true}'`,
  sql`not ${evaluationRuns.flags} @> '{"is_closed": true}'`,
);

/**
 * The live-evaluation tick (reference §4.7), over every project: each running, active, open live
 * run gets one scenario per trace its queries match in the window (see `liveWindow`), stamped
 * with the window's start and length; the workers then score them. A trace is scored once per
 * run even when windows overlap (an explicit interval, two servers ticking). A run that cannot
 * run any more is closed, with `evaluations.runs.failed` saying why.
 *
 * The workers' own ticks skip a run another tick holds (its window, the current one, covers
 * theirs). An explicit refresh (`interval` given) names a window of its own, perhaps a past one
 * no other tick covers, so it waits for the run instead of skipping it.
 */
export async function tickLiveRuns(db: Database, tick: Date, interval?: number): Promise<TickResult> {
  const result: TickResult = { runs: 0, scenarios: 0, closed: 0, failed: 0 };
  const candidates = await db.select({ id: evaluationRuns.id }).from(evaluationRuns).where(LIVE);
  for (const { id } of candidates) {
    try {
      const outcome = await db.transaction((tx) => tickRun(tx, id, tick, interval));
      if (outcome === "closed") result.closed++;
      else if (outcome !== "skipped") {
        result.runs++;
        result.scenarios += outcome;
      }
    } catch (error) {
      // One run's failure (its database work) must not keep the others from their tick.
      result.failed++;
      logger.error({ err: error, run: id }, "live evaluation tick failed; the next tick retries the window");
    }
  }
  return result;
}

async function tickRun(
  tx: Executor,
  runId: string,
  tick: Date,
  interval?: number,
): Promise<number | "skipped" | "closed"> {
  const [run] = await tx
    .select()
    .from(evaluationRuns)
    .where(and(eq(evaluationRuns.id, runId), LIVE))
    .for("update", interval === undefined ? { skipLocked: true } : {});
  if (!run) return "skipped";
  const window = liveWindow(tick, run.tickedAt, interval);
  if (!window) return "skipped";
  let minted: number;
  try {
    await checkLiveGraph(tx, run.projectId, readRunData(run.data));
    minted = await mintWindow(tx, run, window);
  } catch (error) {
    if (!isAppError(error) || error.status >= 500) throw error;
    await closeInvalid(tx, run, error.message);
    return "closed";
  }
  const tickedAt = run.tickedAt && run.tickedAt > window.newest ? run.tickedAt : window.newest;
  await tx.update(evaluationRuns).set({ tickedAt }).where(eq(evaluationRuns.id, run.id));
  if (minted > 0) await notifyEvaluationWorkers(tx);
  return minted;
}

async function mintWindow(tx: Executor, run: EvaluationRunRow, window: LiveWindow): Promise<number> {
  const items = await sourceItems(tx, run.projectId, readRunData(run.data), window);
  const traceIds = items.map((i) => i.traceId!).filter(Boolean);
  const known = traceIds.length
    ? await tx
        .selectDistinct({ traceId: evaluationResults.traceId })
        .from(evaluationResults)
        .where(
          and(
            eq(evaluationResults.runId, run.id),
            isNotNull(evaluationResults.traceId),
            inArray(evaluationResults.traceId, traceIds),
          ),
        )
    : [];
  const seen = new Set(known.map((k) => k.traceId));
  const fresh = items.filter((i) => !i.traceId || !seen.has(i.traceId));
  return mintScenarios(tx, run, fresh, new Date(), { timestamp: window.oldest, interval: window.interval });
}

async function closeInvalid(tx: Executor, run: EvaluationRunRow, reason: string): Promise<void> {
  const [closed] = await tx
    .update(evaluationRuns)
    .set({
      status: "failure",
      flags: { ...run.flags, is_active: false, is_closed: true },
      updatedAt: new Date(),
    })
    .where(eq(evaluationRuns.id, run.id))
    .returning();
  await emitRunEvent(tx, "evaluations.runs.failed", closed, {
    error: { code: "invalid_live_run", message: reason },
  });
}
