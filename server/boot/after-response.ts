import { drivenRunsEnded } from "@/server/agent-runs";
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
  /** No round starts after this (`performance.now()`): the latest deadline of the answers it serves. */
  deadline: number;
}

const drainerFor = processWide<AppContext, Drainer>("after-response-drains", () => ({ again: false, deadline: 0 }));

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
 * What runs after an answer: the drain, then the end of every agent run this process drives (a
 * background run the answer started, a run the drain took over). Next.js keeps the function
 * alive until the promise settles; a run still going when it did would be frozen with the
 * function mid-turn, and taken over again only when its lease ran out.
 */
export function workAfterResponse(app: AppContext): Promise<void> {
  return drainAfterResponse(app).then(() => drivenRunsEnded(app.db));
}

/**
 * Drains every registered worker in rounds until a round finds nothing or WORK_AFTER_RESPONSE_MS
 * has passed since the answer (no round starts after it; set it below the function's time
 * limit). One drain at a time per app: an answer that ends during one asks for another round
 * and moves the drain's deadline to its own, instead of starting a second drain; it waits for
 * that drain until its own deadline. Each answer gets its whole budget: with the first answer's
 * deadline, an evaluation created while an earlier drain ran had only what was left of it, and
 * its cells waited for the cron route.
 */
function drainAfterResponse(app: AppContext): Promise<void> {
  const drainer = drainerFor(app);
  const deadline = performance.now() + app.config.workAfterResponseMs;
  drainer.deadline = Math.max(drainer.deadline, deadline);
  if (drainer.running) {
    drainer.again = true;
    return until(drainer.running, deadline);
  }
  drainer.running = (async () => {
    do {
      drainer.again = false;
      await drainRounds(app, drainer);
    } while (drainer.again && performance.now() < drainer.deadline);
  })().finally(() => {
    drainer.running = undefined;
  });
  return drainer.running;
}

/** `work`, or at `deadline` (`performance.now()`) whichever comes first. */
function until(work: Promise<void>, deadline: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeUp = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, Math.max(0, deadline - performance.now()));
  });
  return Promise.race([work, timeUp]).finally(() => clearTimeout(timer));
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
async function drainRounds(app: AppContext, drainer: Drainer): Promise<void> {
  while (performance.now() < drainer.deadline) {
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
