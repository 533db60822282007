import { logger } from "@/server/core/logger";
import type { RunningWorker } from "./background-worker";

export interface WakeLoop extends RunningWorker {
  /** Runs the pass again as soon as the current one ends (a notification arrived). */
  wake(): void;
}

/**
 * Runs `pass` until stopped: again at once while it reports work, else after a wake-up or
 * `idleMs`, whichever comes first. Errors are logged and retried after the idle wait, so a
 * database blip does not end the loop.
 *
 * `minIntervalMs` spaces passes that follow one another: an idle loop still answers the first
 * wake-up at once, but under a stream of wake-ups (a notification per commit) the next pass
 * waits out the interval and takes in one transaction what several passes would have.
 *
 * `pass` is told `idle` when it follows an idle wait that ran out (no wake-up, nothing found
 * before): such a poll most likely finds nothing, so a pass looks first with one statement and
 * opens its transaction only for what it found. A woken pass, or one after a pass that found
 * work, goes straight to its claim.
 */
export function startWakeLoop(
  name: string,
  pass: (idle: boolean) => Promise<number>,
  idleMs: number,
  minIntervalMs = 0,
): WakeLoop {
  let stopped = false;
  let pending = false;
  let idle = false;
  let wakeUp: (() => void) | undefined;
  const sleep = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => done(true), idleMs);
      function done(timedOut: boolean) {
        clearTimeout(timer);
        wakeUp = undefined;
        idle = timedOut;
        resolve();
      }
      wakeUp = () => done(false);
    });
  let lastStart = -Infinity;
  const finished = (async () => {
    while (!stopped) {
      const wait = lastStart + minIntervalMs - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      if (stopped) break;
      lastStart = performance.now();
      const quiet = idle && !pending;
      pending = false;
      idle = false;
      let handled = 0;
      try {
        handled = await pass(quiet);
      } catch (error) {
        logger.error({ err: error, worker: name }, "background pass failed");
      }
      if (stopped) break;
      if (handled === 0 && !pending) await sleep();
    }
  })();
  return {
    wake() {
      pending = true;
      wakeUp?.();
    },
    async stop() {
      stopped = true;
      wakeUp?.();
      await finished;
    },
  };
}
