import postgres from "postgres";
import { logger } from "@/server/core/logger";
import { databaseUrlOf, type Database } from "@/server/db";
import { listen } from "@/server/worker";
import { VERSIONING_CHANNEL } from "./change-tags";

export interface ChangeHandlers {
  /** A committed change, by its tags. */
  onChange(tags: string[]): void;
  /** Listening started, or started again after a loss: changes in between were not seen. */
  onListening(): void;
  /** The listening connection was lost: changes are not seen until `onListening`. */
  onLost(): void;
}

export interface ChangeListener {
  readonly listening: boolean;
  stop(): Promise<void>;
}

const RETRY_MIN_MS = 50;
const RETRY_MAX_MS = 5_000;

/**
 * Listens on the versioning channel. PostgreSQL: a connection of its own (not postgres.js's shared
 * listener, which re-listens silently), so its loss is known the moment it happens and is reported
 * before the next request can be answered from memory; it listens again with backoff. PGlite:
 * notifications are delivered in-process and cannot be lost.
 */
export function listenForChanges(db: Database, handlers: ChangeHandlers): ChangeListener {
  const url = databaseUrlOf(db);
  return url ? listenOnPostgres(url, handlers) : listenInProcess(db, handlers);
}

function listenOnPostgres(url: string, handlers: ChangeHandlers): ChangeListener {
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
    onnotify: (channel: string, payload: string) => {
      if (channel === VERSIONING_CHANNEL) handlers.onChange(payload.split(" "));
    },
    onclose: () => {
      if (listening) {
        listening = false;
        handlers.onLost();
        logger.warn("versioning change listener lost its connection; the revision cache is off until it listens again");
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
      await sql.unsafe(`listen ${VERSIONING_CHANNEL}`);
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

function listenInProcess(db: Database, handlers: ChangeHandlers): ChangeListener {
  let listening = false;
  const unlisten = listen(db, VERSIONING_CHANNEL, (payload?: string) =>
    handlers.onChange((payload ?? "").split(" ")),
  ).then((stop) => {
    listening = true;
    handlers.onListening();
    return stop;
  });
  return {
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
