import { eq, inArray } from "drizzle-orm";
import { newId } from "@/server/core/ids";
import { logger } from "@/server/core/logger";
import { evaluationRuns } from "@/server/db/schema";
import type { AppContext } from "@/server/core/app-context";
import { listen } from "@/server/worker";
import type { BackgroundWorker, RunningWorker } from "@/server/worker";
import { startWakeLoop } from "@/server/worker";
import { refreshMetrics } from "../metrics/refresh-metrics";
import { nextRefreshAt } from "../metrics/refresh-pace";
import type { EvaluationRunRow } from "../model/rows";
import { dependencyShape } from "./cell-dependencies";
import { EVALUATIONS_CHANNEL } from "./channel";
import { claimCells, renewLeases, type ClaimedCell, type WorkCell } from "./claim-cells";
import { executeCell, type Upstream } from "./execute-cell";
import type { CellOutcome } from "./invocation-outcome";
import { recordOutcome } from "./record-outcome";
import { scoreInProcess } from "./score-in-process";
import { tickLiveRuns } from "./live-ticks";
import { expireRuns, finalizeIfDone, settleCell } from "./settle";
import { settleBatch } from "./settle-batch";

export interface EvaluationWorkerOptions {
  /** Cells this process runs at once, over every run (each run is further bounded by its batch_size). */
  concurrency?: number;
  /** How long a claimed cell belongs to this worker without a renewal; a dead worker's cells are due again after it. */
  leaseMs?: number;
  /** Safety poll when no notification arrives (retries falling due, a missed NOTIFY). */
  idleMs?: number;
  /** Least time between two refreshes of a running run's global metrics (longer for large runs: refresh-pace.ts). */
  metricsIntervalMs?: number;
  /**
   * How often the live-evaluation tick runs (default every minute, a couple of seconds past it,
   * so the minute's traces are ingested); 0 turns it off (another process ticks).
   */
  liveTickMs?: number;
  /**
   * Cells a slot runs in a row, each handed off by the record of the one before, before it goes
   * back to the claim (where the least served project comes first): a run with a long queue of
   * due cells cannot keep every slot from other projects' runs. Default 20.
   */
  turnCells?: number;
}

/** A slot: the cell it runs now (it moves on to the run's next cell when one is handed off). */
interface InFlight {
  claimed: ClaimedCell;
  controller: AbortController;
  task?: Promise<void>;
}

/** Whether `next` is an evaluator cell scoring the invocation cell `done` (its scenario, its repeat or a shared one). */
function scoresOutcome(run: EvaluationRunRow, done: WorkCell, next: WorkCell): boolean {
  const { invocation, evaluators, shared } = dependencyShape(run);
  return (
    invocation?.key === done.stepKey &&
    evaluators.includes(next.stepKey) &&
    next.scenarioId === done.scenarioId &&
    (shared ? done.repeatIdx === 0 : next.repeatIdx === done.repeatIdx)
  );
}

const STOPPED: CellOutcome = {
  status: "failure",
  error: { code: "cancelled", message: "the run was stopped" },
  latencyMs: 0,
};

/** Cells a slot runs in a row before it goes back to the claim (EvaluationWorkerOptions.turnCells). */
const DEFAULT_TURN_CELLS = 20;

/** How often a pass also fails the runs past their time budget. */
const EXPIRY_CHECK_MS = 1_000;

/**
 * Runs cells of evaluation runs: claims due cells as slots free up, renews the leases of those
 * it holds, and aborts them when their run is stopped, closed, deleted or out of time. Outcomes
 * are written under the lease, so a cell is recorded once even when a worker dies mid-cell and
 * another takes it over. A slot whose cell is recorded takes the run's next due cell in the same
 * transaction (see recordOutcome), so a busy run costs no claim per cell.
 */
export function startEvaluationWorker(
  app: AppContext,
  options: EvaluationWorkerOptions = {},
): RunningWorker & { wake(): void; idle(wake?: boolean): Promise<void> } {
  const concurrency = options.concurrency ?? 50;
  const leaseMs = options.leaseMs ?? 30_000;
  const metricsIntervalMs = options.metricsIntervalMs ?? 1_000;
  const turnCells = Math.max(1, options.turnCells ?? DEFAULT_TURN_CELLS);
  const inFlight = new Map<string, InFlight>();
  /** When each run's global metrics may be refreshed next. */
  const metricsAt = new Map<string, number>();
  let slotFreed: (() => void) | undefined;
  let stopped = false;
  let expiredAt = 0;
  /** Callers of `idle()`: resolved by a pass that claims nothing with no cell in flight or settling. */
  const idleWaiters: Array<() => void> = [];

  const settles = settleBatch(app.db);
  const settling = new Set<Promise<void>>();
  const track = (work: Promise<void>) => {
    const tracked = work
      .catch((error: unknown) => logger.error({ err: error }, "settling a scenario failed; the run's end settles it"))
      .finally(() => {
        settling.delete(tracked);
        if (idleWaiters.length) loop.wake();
      });
    settling.add(tracked);
  };

  const refreshRunMetrics = async (run: EvaluationRunRow) => {
    const startedAt = Date.now();
    if (startedAt < (metricsAt.get(run.id) ?? 0)) return;
    metricsAt.set(run.id, startedAt + metricsIntervalMs);
    await refreshMetrics(app.db, run);
    metricsAt.set(run.id, nextRefreshAt(startedAt, Date.now(), metricsIntervalMs));
  };

  const finish = async (slot: InFlight) => {
    let upstream: Upstream | undefined;
    for (let turn = 1; ; turn++) {
      const { run, cell, token } = slot.claimed;
      const outcome = await executeCell(app, run, cell, slot.controller.signal, upstream);
      const scored = await scoreInProcess(app, run, cell, outcome, slot.controller.signal);
      const aborted = slot.controller.signal.aborted;
      const { recorded, next, scenarioOpen, scenarioCells } = await recordOutcome(
        app.db,
        run,
        cell,
        token,
        aborted ? { ...STOPPED, latencyMs: outcome.latencyMs } : outcome,
        new Date(),
        aborted || stopped || turn >= turnCells ? undefined : { leaseMs },
        scored,
      );
      // A scenario with a cell just released or leased is not done: no settle to try.
      if (recorded === "done" && !scenarioOpen) {
        // The slot goes on with the handed-off cell while the scenario settles; a slot with
        // nothing next waits for it, then sees whether the run is done.
        // When this cell ended the scenario, its record returned the cells to settle from;
        // otherwise the batch looks at the scenario again (settle-batch.ts). A live run's window
        // metrics are refreshed under the scenario's lock: the full settle.
        const settling = run.flags.is_live
          ? settleCell(app.db, run, cell.scenarioId)
          : settles.add({ run, scenarioId: cell.scenarioId, cells: scenarioCells }, !next);
        const settled = settling.then(async (done) => {
          if (done && (next || !(await finalizeIfDone(app.db, run.id)))) await refreshRunMetrics(run);
        });
        if (next) track(settled);
        else await settled;
      }
      if (!next) return;
      // An evaluator cell handed off right after the invocation it scores takes its output from
      // here rather than reading it back.
      upstream =
        outcome.status === "success" && recorded === "done" && scoresOutcome(run, cell, next.cell)
          ? { outputs: outcome.outputs, traceId: outcome.traceId ?? null }
          : undefined;
      const current =
        // The row's time has microseconds, a Date milliseconds: equal to the millisecond is unchanged.
        next.runUpdatedMs !== undefined && Math.floor(next.runUpdatedMs) === run.updatedAt?.getTime()
          ? run
          : ((await app.db.select().from(evaluationRuns).where(eq(evaluationRuns.id, run.id)))[0] ?? run);
      slot.claimed = { run: current, cell: next.cell, token: next.token };
      slot.controller = new AbortController();
    }
  };

  const pass = async (): Promise<number> => {
    // Only waiters from before this pass began: a pass whose claim was read before a caller's
    // write committed says nothing about that write's cells.
    const waiters = idleWaiters.splice(0);
    try {
      const claimed = await claimPass();
      if (claimed === 0 && !inFlight.size && !settling.size) for (const resolve of waiters.splice(0)) resolve();
      return claimed;
    } finally {
      idleWaiters.unshift(...waiters);
    }
  };

  const claimPass = async (): Promise<number> => {
    if (Date.now() - expiredAt >= EXPIRY_CHECK_MS) {
      expiredAt = Date.now();
      await expireRuns(app.db);
      // A time passed means what no time means (refresh now): the map keeps only runs refreshed lately.
      for (const [runId, at] of metricsAt) if (at <= expiredAt) metricsAt.delete(runId);
    }
    while (inFlight.size >= concurrency && !stopped) await new Promise<void>((resolve) => (slotFreed = resolve));
    if (stopped) return 0;
    const claimed = await claimCells(app.db, concurrency - inFlight.size, leaseMs);
    for (const c of claimed) {
      const id = newId();
      const slot: InFlight = { claimed: c, controller: new AbortController() };
      slot.task = finish(slot)
        .catch((error: unknown) =>
          logger.error(
            { err: error, cell: slot.claimed.cell.id, run: slot.claimed.run.id },
            "evaluation cell not recorded; its lease runs out and it runs again",
          ),
        )
        .finally(() => {
          inFlight.delete(id);
          slotFreed?.();
          slotFreed = undefined;
          loop.wake();
        });
      inFlight.set(id, slot);
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
  const listener = listen(
    app.db,
    EVALUATIONS_CHANNEL,
    (notice) => {
      loop.wake();
      // Cells falling due need a claim only; a stopped run needs its cells aborted now.
      if (notice !== "due") void tend().catch(() => undefined);
    },
    // Listened to again after a loss: what was notified meanwhile was missed.
    () => {
      loop.wake();
      void tend().catch(() => undefined);
    },
  ).catch((error: unknown) => {
    logger.error({ err: error }, "evaluation worker cannot LISTEN; polling only");
    return undefined;
  });
  return {
    wake: () => loop.wake(),
    /**
     * Resolves after a pass that finds no cell due, none in flight and no scenario settling: the
     * work due now is done (a cell retried after a backoff is due later). Tests await it instead
     * of polling a run's status. `wake`: run that pass now; false: wait for the loop's own next
     * pass (a notification or the idle wait), for work that falls due later.
     */
    idle: (wake = true) =>
      new Promise<void>((resolve) => {
        idleWaiters.push(resolve);
        if (wake) loop.wake();
      }),
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
      await settles.flush();
      await Promise.all([...settling]);
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
      const scored = await scoreInProcess(app, c.run, c.cell, outcome, controller.signal);
      const { recorded } = await recordOutcome(app.db, c.run, c.cell, c.token, outcome, undefined, undefined, scored);
      if (recorded === "done" && (await settleCell(app.db, c.run, c.cell.scenarioId)))
        await finalizeIfDone(app.db, c.run.id);
    }),
  );
  return claimed.length;
}

export const evaluationWorker: BackgroundWorker = {
  name: "evaluations",
  start: (app) => startEvaluationWorker(app),
  drain: (app, limit) => drainEvaluationCells(app, limit),
};
