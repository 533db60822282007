import { logger } from "@/server/core/logger";
import type { Database } from "@/server/db";
import { listen } from "./listen";
import type { WakeLoop } from "./wake-loop";

/** The LISTENs of a worker's loops: `listening` settles once all are set up (or failed). */
export interface NotifyWakes {
  /** Tests await it before relying on wake-ups. */
  listening: Promise<void>;
  stop(): Promise<void>;
}

/**
 * Wakes each loop when its channel is notified, and when its channel is listened to again after
 * the listening connection was lost (a notification may have come in between). The loops poll
 * anyway: if LISTEN cannot be set up they run on their polls, slower, not stuck (logged once,
 * naming `worker`).
 */
export function wakeOnNotify(
  db: Database,
  worker: string,
  wakes: ReadonlyArray<readonly [channel: string, loop: Pick<WakeLoop, "wake">]>,
): NotifyWakes {
  // Settled one by one: the LISTENs that did succeed are stopped with the worker.
  const listeners = Promise.allSettled(
    wakes.map(([channel, loop]) => {
      const wake = () => loop.wake();
      return listen(db, channel, wake, wake);
    }),
  ).then((results) => {
    const failed = results.find((result) => result.status === "rejected");
    if (failed) logger.error({ err: failed.reason }, `${worker} cannot LISTEN; polling only`);
    return results.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
  });
  return {
    listening: listeners.then(() => undefined),
    async stop() {
      await Promise.all((await listeners).map((unlisten) => unlisten()));
    },
  };
}
