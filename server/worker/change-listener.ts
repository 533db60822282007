import { logger } from "@/server/core/logger";
import { notificationsOf, type Database } from "@/server/db";
import { listen } from "./listen";
import { sharedListenerOf } from "./shared-listener";

export { CHANGE_LISTENER_APPLICATION } from "./shared-listener";

export interface ChangeHandlers {
  /** A committed change: its notification's payload. */
  onChange(payload: string): void;
  /** Listening started, or started again after a loss: changes in between were not seen. */
  onListening(): void;
  /** The listening connection was lost: changes are not seen until `onListening`. */
  onLost(): void;
}

export interface ChangeListener {
  /**
   * `listen`: changes arrive as notifications while `listening`. `expiry`: there is no session
   * to listen on (a transaction pooler without DATABASE_DIRECT_URL); a cache must bound the age
   * of what it serves instead.
   */
  readonly mode: "listen" | "expiry";
  readonly listening: boolean;
  stop(): Promise<void>;
}

/**
 * Listens on `channel` for a cache that must never answer from memory after a change it missed
 * (the revision cache, the API key cache). PostgreSQL: the process's one listening connection on
 * the database (`shared-listener.ts`), whose loss is known the moment it happens and is reported
 * before the next request can be answered from memory; it listens again with backoff.
 * PGlite: notifications are delivered in-process and cannot be lost. Behind a transaction pooler
 * it listens on DATABASE_DIRECT_URL, and without one it never claims to listen (`expiry`).
 */
export function listenForChanges(db: Database, channel: string, handlers: ChangeHandlers): ChangeListener {
  const notifications = notificationsOf(db);
  if (notifications.kind === "session") {
    const subscribed = sharedListenerOf(db).add(notifications.url, channel, handlers);
    return {
      mode: "listen",
      get listening() {
        return subscribed.listening;
      },
      stop: () => subscribed.stop(),
    };
  }
  if (notifications.kind === "in-process") return listenInProcess(db, channel, handlers);
  return { mode: "expiry", listening: false, stop: async () => {} };
}

function listenInProcess(db: Database, channel: string, handlers: ChangeHandlers): ChangeListener {
  let listening = false;
  const unlisten = listen(db, channel, (payload?: string) => handlers.onChange(payload ?? "")).then(
    (stop) => {
      listening = true;
      handlers.onListening();
      return stop;
    },
    // Never listening, the cache never serves: slower, not stale.
    (error: unknown) => {
      logger.warn({ err: error, channel }, "cannot listen for changes; the cache stays off");
      return async () => {};
    },
  );
  return {
    mode: "listen",
    get listening() {
      return listening;
    },
    async stop() {
      listening = false;
      await (
        await unlisten
      )();
    },
  };
}
