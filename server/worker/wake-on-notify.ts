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
 * Wakes each loop when its channel is notified. The loops poll anyway: if LISTEN cannot be set
 * up they run on their polls, slower, not stuck (logged once, naming `worker`).
 */
export function wakeOnNotify(
  db: Database,
  worker: string,
  wakes: ReadonlyArray<readonly [channel: string, loop: Pick<WakeLoop, "wake">]>,
): NotifyWakes {
  const listeners = Promise.all(wakes.map(([channel, loop]) => listen(db, channel, () => loop.wake()))).catch(
    (error: unknown) => {
      logger.error({ err: error }, `${worker} cannot LISTEN; polling only`);
      return [];
    },
  );
  return {
    listening: listeners.then(() => undefined),
    async stop() {
      await Promise.all((await listeners).map((unlisten) => unlisten()));
    },
  };
}
