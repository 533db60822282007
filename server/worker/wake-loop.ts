import { logger } from "@/server/core/logger";
import type { RunningWorker } from "./registry";

export interface WakeLoop extends RunningWorker {
  /** Runs the pass again as soon as the current one ends (a notification arrived). */
  wake(): void;
}

/**
 * Runs `pass` until stopped: again at once while it reports work, else after a wake-up or
 * `idleMs`, whichever comes first. Errors are logged and retried after the idle wait, so a
 * database blip does not end the loop.
 */
export function startWakeLoop(name: string, pass: () => Promise<number>, idleMs: number): WakeLoop {
  let stopped = false;
  let pending = false;
  let wakeUp: (() => void) | undefined;
  const sleep = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, idleMs);
      function done() {
        clearTimeout(timer);
        wakeUp = undefined;
        resolve();
      }
      wakeUp = done;
    });
  const finished = (async () => {
    while (!stopped) {
      pending = false;
      let handled = 0;
      try {
        handled = await pass();
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
