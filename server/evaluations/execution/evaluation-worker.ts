import { inArray } from "drizzle-orm";
import { logger } from "@/server/core/logger";
import { evaluationRuns } from "@/server/db/schema";
import type { AppContext } from "@/server/core/app-context";
import { listen } from "@/server/worker";
import type { BackgroundWorker, RunningWorker } from "@/server/worker";
import { startWakeLoop } from "@/server/worker";
import { refreshMetrics } from "../metrics/refresh-metrics";
import { EVALUATIONS_CHANNEL } from "./channel";
import { claimCells, renewLeases, type ClaimedCell } from "./claim-cells";
import { executeCell } from "./execute-cell";
import { recordOutcome } from "./record-outcome";
import { tickLiveRuns } from "./live-ticks";
import { expireRuns, finalizeIfDone } from "./settle";

export interface EvaluationWorkerOptions {
  /** Cells this process runs at once, over every run (each run is further bounded by its batch_size). */
  concurrency?: number;
  /** How long a claimed cell belongs to this worker without a renewal; a dead worker's cells are due again after it. */
  leaseMs?: number;
  /** Safety poll when no notification arrives (retries falling due, a missed NOTIFY). */
  idleMs?: number;
  /** Least time between two refreshes of a running run's global metrics. */
  metricsIntervalMs?: number;
  /**
   * How often the live-evaluation tick runs (default every minute, a couple of seconds past it,
   * so the minute's traces are ingested); 0 turns it off (another process ticks).
   */
  liveTickMs?: number;
}

interface InFlight {
  claimed: ClaimedCell;
  controller: AbortController;
  task: Promise<void>;
}

/**
 * Runs cells of evaluation runs: claims due cells as slots free up, renews the leases of those
 * it holds, and aborts them when their run is stopped, closed, deleted or out of time. Outcomes
 * are written under the lease, so a cell is recorded once even when a worker dies mid-cell and
 * another takes it over.
 */
export function startEvaluationWorker(
  app: AppContext,
  options: EvaluationWorkerOptions = {},
): RunningWorker & { wake(): void } {
  const concurrency = options.concurrency ?? 50;
  const leaseMs = options.leaseMs ?? 30_000;
  const metricsIntervalMs = options.metricsIntervalMs ?? 1_000;
  const inFlight = new Map<string, InFlight>();
  const metricsAt = new Map<string, number>();
  let slotFreed: (() => void) | undefined;
  let stopped = false;

  const finish = async (claimed: ClaimedCell, controller: AbortController) => {
    const outcome = await executeCell(app, claimed.run, claimed.cell, controller.signal);
    const { recorded, scenarioSettled } = await recordOutcome(
      app.db,
      claimed.run,
      claimed.cell,
      claimed.token,
      controller.signal.aborted
        ? {
            status: "failure",
            error: { code: "cancelled", message: "the run was stopped" },
            latencyMs: outcome.latencyMs,
          }
        : outcome,
    );
    if (recorded !== "done" || !scenarioSettled) return;
    const finished = await finalizeIfDone(app.db, claimed.run.id);
    if (finished) return;
    const last = metricsAt.get(claimed.run.id) ?? 0;
    if (Date.now() - last >= metricsIntervalMs) {
      metricsAt.set(claimed.run.id, Date.now());
      await refreshMetrics(app.db, claimed.run);
    }
  };

  const pass = async (): Promise<number> => {
    await expireRuns(app.db);
    while (inFlight.size >= concurrency && !stopped) await new Promise<void>((resolve) => (slotFreed = resolve));
    if (stopped) return 0;
    const claimed = await claimCells(app.db, concurrency - inFlight.size, leaseMs);
    for (const c of claimed) {
      const controller = new AbortController();
      const task = finish(c, controller)
        .catch((error: unknown) =>
          logger.error(
            { err: error, cell: c.cell.id, run: c.run.id },
            "evaluation cell not recorded; its lease runs out and it runs again",
          ),
        )
        .finally(() => {
          inFlight.delete(c.cell.id);
          slotFreed?.();
          slotFreed = undefined;
          loop.wake();
        });
      inFlight.set(c.cell.id, { claimed: c, controller, task });
    }
    return claimed.length;
  };

  /** Aborts the cells of runs that should no longer run; renews the others' leases. */
  const tend = async () => {
    if (inFlight.size === 0) return;
    const held = [...inFlight.values()];
    const runIds = [...new Set(held.map((h) => h.claimed.run.id))];
    const runs = await app.db
      .select({ id: evaluationRuns.id, status: evaluationRuns.status, flags: evaluationRuns.flags })
      .from(evaluationRuns)
      .where(inArray(evaluationRuns.id, runIds));
    const live = new Set(
      runs.filter((r) => r.status === "running" && r.flags.is_active && !r.flags.is_closed).map((r) => r.id),
    );
    for (const h of held)
      if (!live.has(h.claimed.run.id)) h.controller.abort(new Error("the evaluation run was stopped"));
    await renewLeases(
      app.db,
      [...new Set(held.filter((h) => live.has(h.claimed.run.id)).map((h) => h.claimed.token))],
      leaseMs,
    );
  };

  const loop = startWakeLoop("evaluations", pass, options.idleMs ?? 1_000);
  const liveTickMs = options.liveTickMs ?? 60_000;
  let tickTimer: NodeJS.Timeout | undefined;
  const scheduleTick = () => {
    if (stopped || liveTickMs <= 0) return;
    const settle = liveTickMs >= 60_000 ? 2_000 : 0;
    tickTimer = setTimeout(
      () =>
        void tickLiveRuns(app.db, new Date())
          .catch((error: unknown) => logger.error({ err: error }, "live evaluation tick failed"))
          .finally(scheduleTick),
      liveTickMs - (Date.now() % liveTickMs) + settle,
    );
  };
  scheduleTick();
  const tendEvery = Math.max(50, Math.min(500, leaseMs / 3));
  const timer = setInterval(
    () => void tend().catch((error: unknown) => logger.error({ err: error }, "evaluation lease renewal failed")),
    tendEvery,
  );
  const listener = listen(app.db, EVALUATIONS_CHANNEL, () => {
    loop.wake();
    void tend().catch(() => undefined);
  }).catch((error: unknown) => {
    logger.error({ err: error }, "evaluation worker cannot LISTEN; polling only");
    return undefined;
  });
  return {
    wake: () => loop.wake(),
    async stop() {
      stopped = true;
      clearInterval(timer);
      clearTimeout(tickTimer);
      slotFreed?.();
      const unlisten = await listener;
      await unlisten?.();
      for (const h of inFlight.values()) h.controller.abort(new Error("the worker is stopping"));
      await loop.stop();
      await Promise.all([...inFlight.values()].map((h) => h.task));
    },
  };
}

/**
 * One bounded pass for the cron route: the live tick (catching up the minutes since the last),
 * then up to `limit` cells claimed and run; returns how many cells.
 */
export async function drainEvaluationCells(app: AppContext, limit: number, leaseMs = 30_000): Promise<number> {
  await tickLiveRuns(app.db, new Date());
  await expireRuns(app.db);
  const claimed = await claimCells(app.db, limit, leaseMs);
  await Promise.all(
    claimed.map(async (c) => {
      const controller = new AbortController();
      const outcome = await executeCell(app, c.run, c.cell, controller.signal);
      const { recorded, scenarioSettled } = await recordOutcome(app.db, c.run, c.cell, c.token, outcome);
      if (recorded === "done" && scenarioSettled) await finalizeIfDone(app.db, c.run.id);
    }),
  );
  return claimed.length;
}

export const evaluationWorker: BackgroundWorker = {
  name: "evaluations",
  start: (app) => startEvaluationWorker(app),
  drain: (app, limit) => drainEvaluationCells(app, limit),
};
