import postgres from "postgres";
import { logger } from "@/server/core/logger";
import { notificationsOf, type Database } from "@/server/db";
import { listen } from "./listen";

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

const RETRY_MIN_MS = 50;
const RETRY_MAX_MS = 5_000;

/**
 * Listens on `channel` for a cache that must never answer from memory after a change it missed
 * (the revision cache, the API key cache). PostgreSQL: a connection of its own (not postgres.js's
 * shared listener, which re-listens silently), so its loss is known the moment it happens and is
 * reported before the next request can be answered from memory; it listens again with backoff.
 * PGlite: notifications are delivered in-process and cannot be lost. Behind a transaction pooler
 * it listens on DATABASE_DIRECT_URL, and without one it never claims to listen (`expiry`).
 */
export function listenForChanges(db: Database, channel: string, handlers: ChangeHandlers): ChangeListener {
  const notifications = notificationsOf(db);
  if (notifications.kind === "session") return listenOnPostgres(notifications.url, channel, handlers);
  if (notifications.kind === "in-process") return listenInProcess(db, channel, handlers);
  return { mode: "expiry", listening: false, stop: async () => {} };
}

function listenOnPostgres(url: string, channel: string, handlers: ChangeHandlers): ChangeListener {
  let listening = false;
  let stopped = false;
  let retryMs = RETRY_MIN_MS;
  let retry: NodeJS.Timeout | undefined;
  // `onnotify` is a connection option postgres.js supports but does not declare.
  const sql = postgres(url, {
    max: 1,
    idle_timeout: 0,
    max_lifetime: 0,
    fetch_types: false,
    onnotice: () => {},
    onnotify: (notified: string, payload: string) => {
      if (notified === channel) handlers.onChange(payload);
    },
    onclose: () => {
      if (listening) {
        listening = false;
        handlers.onLost();
        logger.warn({ channel }, "change listener lost its connection; its cache is off until it listens again");
      }
      if (!stopped) scheduleListen();
    },
  } as postgres.Options<Record<string, never>>);
  const scheduleListen = () => {
    if (retry || stopped) return;
    retry = setTimeout(() => {
      retry = undefined;
      void startListening();
    }, retryMs);
    retryMs = Math.min(RETRY_MAX_MS, retryMs * 2);
  };
  const startListening = async () => {
    try {
      await sql.unsafe(`listen ${channel}`);
      if (stopped) return;
      retryMs = RETRY_MIN_MS;
      listening = true;
      handlers.onListening();
    } catch {
      scheduleListen();
    }
  };
  void startListening();
  return {
    mode: "listen",
    get listening() {
      return listening;
    },
    async stop() {
      stopped = true;
      listening = false;
      clearTimeout(retry);
      await sql.end({ timeout: 1 });
    },
  };
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
