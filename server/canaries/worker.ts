import type { AppContext } from "@/server/core/app-context";
import { isAppError } from "@/server/core/errors";
import { logger } from "@/server/core/logger";
import { rawQuery } from "@/server/db";
import { liveScoreOfRevision } from "@/server/evaluations";
import { startWakeLoop, type BackgroundWorker } from "@/server/worker";
import { rampLocked, rollbackLocked } from "./actions";
import { claimDueCanaries, guardedCanaries, lockRunningCanary, type CanaryRow } from "./store";
import { firedMonitor } from "./monitor-guard";

/**
 * How often the worker looks. It polls: time makes a ramp step due, and a guard's evidence (live
 * evaluation results, a monitor's alert) arrives without a notification (README: why not the
 * monitor's event). The claims (FOR UPDATE SKIP LOCKED, and the
 * running-status check under the row lock) make each step and each rollback happen once.
 */
const POLL_MS = 5_000;
const BATCH = 20;

// The worker's commits are authored by whoever started the canary (none once that user is removed).
const scopeOf = (row: CanaryRow) => ({ projectId: row.projectId, userId: row.createdById as string });

/** One pass at the app's clock: due ramp steps, then guards. Returns how many canaries changed. */
export async function canaryPass(app: AppContext, limit = BATCH): Promise<number> {
  const now = app.now();
  // Both parts concern running canaries: without one, an idle poll is this one round trip.
  if ((await rawQuery(app.db, "select 1 from canaries where status = $1 limit 1", ["running"])).length === 0) return 0;
  let changed = 0;
  changed += await app.db.transaction(async (tx) => {
    const due = await claimDueCanaries(tx, now, limit);
    for (const row of due) await rampLocked(tx, scopeOf(row), row, undefined, now);
    return due.length;
  });
  for (const row of await guardedCanaries(app.db, limit)) {
    const fired = await firedGuard(app, row);
    if (!fired) continue;
    try {
      await app.db.transaction(async (tx) =>
        rollbackLocked(tx, scopeOf(row), await lockRunningCanary(tx, row.projectId, row.id), fired, app.now()),
      );
      changed++;
    } catch (error) {
      // Ended or deleted meanwhile (promoted, rolled back by hand): nothing left to guard. Anything
      // else (the database) fails the pass, which the wake loop logs and runs again.
      if (!isAppError(error) || (error.code !== "canary_ended" && error.status !== 404)) throw error;
      logger.debug({ err: error, canary: row.id }, "canary guard found the canary ended");
    }
  }
  return changed;
}

/** Why the canary must roll back now, or undefined while its guards hold. */
async function firedGuard(app: AppContext, row: CanaryRow): Promise<string | undefined> {
  const guard = row.guards.min_score;
  if (guard) {
    const score = await liveScoreOfRevision(
      app.db,
      row.projectId,
      guard.evaluation_run_id,
      row.candidateRevisionId,
      row.startedAt,
    );
    if (score.mean !== null && score.results >= guard.min_results && score.mean < guard.minimum)
      return `live evaluation ${guard.evaluation_run_id} scored ${round(score.mean)} on the canary's traffic (${score.results} results), below the guard's ${guard.minimum}`;
  }
  if (row.guards.monitors?.length) return firedMonitor(app.db, row.projectId, row.guards.monitors, row.startedAt);
  return undefined;
}

const round = (n: number) => Math.round(n * 1000) / 1000;

export const canaryWorker: BackgroundWorker = {
  name: "canaries",
  start: (app) => startWakeLoop("canaries", () => canaryPass(app), POLL_MS),
  drain: (app, limit) => canaryPass(app, limit),
};
