import type { AppContext } from "@/server/core/app-context";
import { newId } from "@/server/core/ids";
import { startWakeLoop, type BackgroundWorker, type WakeLoop } from "@/server/worker";
import { advance } from "./engine";
import { claimDue, updateOptimization } from "./store";

export interface OptimizationWorkerOptions {
  /** How long a claim holds an optimization without renewal; a worker renews it at each step. */
  leaseMs?: number;
  /** How soon an optimization waiting on its evaluation runs is looked at again. */
  pollMs?: number;
  /** The loop's idle wait between passes that found nothing due. */
  idleMs?: number;
}

const DEFAULTS = { leaseMs: 60_000, pollMs: 1_000, idleMs: 1_000 };

/**
 * One pass: claims due optimizations one at a time (FOR UPDATE SKIP LOCKED, a lease per claim),
 * advances each as far as it can go now, and hands back those waiting on evaluation runs with
 * `next_at` set to look again. A worker that dies holding one leaves its lease to run out; the
 * next claim after that resumes it from its rows.
 */
export async function optimizationPass(
  app: AppContext,
  limit = 10,
  options: OptimizationWorkerOptions = {},
): Promise<number> {
  const { leaseMs, pollMs } = { ...DEFAULTS, ...options };
  let handled = 0;
  for (; handled < limit; handled++) {
    const token = newId();
    const now = app.now();
    const [row] = await claimDue(app.db, now, new Date(now.getTime() + leaseMs), 1, token);
    if (!row) break;
    const outcome = await advance(app, row, token, leaseMs);
    if (outcome === "waiting")
      await updateOptimization(
        app.db,
        row.id,
        { leaseToken: null, leaseUntil: null, nextAt: new Date(app.now().getTime() + pollMs) },
        token,
      );
  }
  return handled;
}

export function startOptimizationWorker(app: AppContext, options: OptimizationWorkerOptions = {}): WakeLoop {
  const idleMs = options.idleMs ?? options.pollMs ?? DEFAULTS.idleMs;
  return startWakeLoop("improve-optimizations", () => optimizationPass(app, 10, options), idleMs);
}

export const optimizationWorker: BackgroundWorker = {
  name: "improve-optimizations",
  start: (app) => startOptimizationWorker(app),
  drain: (app, limit) => optimizationPass(app, limit),
};
