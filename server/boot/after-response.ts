import type { AppContext } from "@/server/core/app-context";
import { logger } from "@/server/core/logger";
import { processWide } from "@/server/core/process-wide";
import { BACKGROUND_WORKERS } from "./workers";

/** Each worker's share of one round; rounds repeat while any worker found work. */
const ROUND_LIMIT = 50;

/** Schedules a task after the answer: Next.js's `after()` on Vercel, or the door's own. */
export type AfterResponse = (task: () => Promise<void>) => void;

interface Drainer {
  running?: Promise<void>;
  /** An answer ended while a drain ran: what it queued may have been committed after a worker's pass. */
  again: boolean;
}

const drainerFor = processWide<AppContext, Drainer>("after-response-drains", () => ({ again: false }));

/**
 * WORKERS=after-response: whether an answer may have queued background work (a write answered
 * with success), so a drain follows it. Reads queue nothing a client waits for: a retrieve's
 * read event is fanned out by the next drain or the cron route.
 */
export function queuesWork(app: AppContext, method: string, status: number): boolean {
  return app.config.workers === "after-response" && status < 400 && !SAFE_METHODS.has(method);
}
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Drains every registered worker in rounds until a round finds nothing or WORK_AFTER_RESPONSE_MS
 * has passed (no round starts after it; set it below the function's time limit). One drain at a
 * time per app: an answer that ends during one asks for another round instead of a second drain,
 * and gets the running drain's promise to wait on (Next.js keeps the function alive until it
 * settles).
 */
export function workAfterResponse(app: AppContext): Promise<void> {
  const drainer = drainerFor(app);
  if (drainer.running) {
    drainer.again = true;
    return drainer.running;
  }
  const deadline = performance.now() + app.config.workAfterResponseMs;
  drainer.running = (async () => {
    do {
      drainer.again = false;
      await drainRounds(app, deadline);
    } while (drainer.again && performance.now() < deadline);
  })().finally(() => {
    drainer.running = undefined;
  });
  return drainer.running;
}

/** Resolves once no drain runs for `app` (tests and the benchmark wait on it). */
export async function afterResponseSettled(app: AppContext): Promise<void> {
  const drainer = drainerFor(app);
  while (drainer.running) await drainer.running;
}

/**
 * The workers of a round drain side by side: one after another, a commit's delivery waited for
 * the ingest, evaluation, statistics, sweep and automation passes before it (each a few queries),
 * which the benchmark saw as up to twice the in-process workers' delay.
 */
async function drainRounds(app: AppContext, deadline: number): Promise<void> {
  while (performance.now() < deadline) {
    const handled = await Promise.all(
      BACKGROUND_WORKERS.map((worker) =>
        worker.drain(app, ROUND_LIMIT).catch((error: unknown) => {
          logger.error({ err: error, worker: worker.name }, "drain after a response failed; the cron route retries");
          return 0;
        }),
      ),
    );
    if (handled.every((n) => n === 0)) return;
  }
}
