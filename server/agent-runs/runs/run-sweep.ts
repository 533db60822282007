import type { AppContext } from "@/server/core/app-context";
import { logger } from "@/server/core/logger";
import { startWakeLoop, type BackgroundWorker } from "@/server/worker";
import { claimExpiredRun, takeOverRun } from "./take-over-run";

/**
 * Takes over the runs whose process died: a running run whose lease expired (no heartbeat for
 * AGENT_RUN_LEASE_MS) is claimed by this process (SKIP LOCKED, so two sweeping processes never
 * claim the same run) and continued here from its event log (`takeOverRun`), or failed with the
 * reason when it cannot be. Returns how many runs it claimed. Leases are compared with the app's
 * clock, so a test moves it past a lease instead of waiting the lease out.
 */
export async function sweepExpiredRuns(app: AppContext, limit: number, now = app.now()): Promise<number> {
  let claimed = 0;
  for (; claimed < limit; claimed++) {
    const run = await claimExpiredRun(app.db, now, app.config.agentRuns.leaseMs);
    if (!run) break;
    await takeOverRun(app, run).catch((error: unknown) =>
      logger.error({ err: error, runId: run.id }, "taking the run over failed; the sweep will try again"),
    );
  }
  return claimed;
}

export const runSweepWorker: BackgroundWorker = {
  name: "agent-run-sweep",
  start: (app: AppContext) =>
    startWakeLoop(
      "agent-run-sweep",
      () => sweepExpiredRuns(app, 50),
      Math.max(1_000, Math.floor(app.config.agentRuns.leaseMs / 2)),
    ),
  drain: (app, limit) => sweepExpiredRuns(app, limit),
};
