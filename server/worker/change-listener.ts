import postgres from "postgres";
import { logger } from "@/server/core/logger";
import { processWide } from "@/server/core/process-wide";
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
 * (the revision cache, the API key cache). PostgreSQL: a connection the database's change
 * listeners share (`SharedListener`), not postgres.js's shared listener, which re-listens
 * silently: its loss is known the moment it happens and is reported before the next request can
 * be answered from memory; it listens again with backoff.
 * PGlite: notifications are delivered in-process and cannot be lost. Behind a transaction pooler
 * it listens on DATABASE_DIRECT_URL, and without one it never claims to listen (`expiry`).
 */
export function listenForChanges(db: Database, channel: string, handlers: ChangeHandlers): ChangeListener {
  const notifications = notificationsOf(db);
  if (notifications.kind === "session") return listenersOf(db).add(notifications.url, channel, handlers);
  if (notifications.kind === "in-process") return listenInProcess(db, channel, handlers);
  return { mode: "expiry", listening: false, stop: async () => {} };
}

/** How the listening connection shows in `pg_stat_activity` (an operator's, and the loss tests', handle on it). */
export const CHANGE_LISTENER_APPLICATION = "agent-service change listener";

interface Subscription {
  channel: string;
  handlers: ChangeHandlers;
  listening: boolean;
}

/**
 * One connection per database (pool) for every change listener on it. PostgreSQL wakes every
 * listening backend of a database for every notifying commit, whatever its channels (measured
 * here: a notify-only transaction took 0.06 ms with no other listener and 0.2 ms with six idle
 * ones), so a process's caches share one backend instead of one each. Its loss is every
 * subscription's: each is told at once (`onLost`), and told again when its channel is listened
 * to on the next connection (`onListening`).
 */
class SharedListener {
  private readonly subscriptions = new Set<Subscription>();
  private readonly listened = new Set<string>();
  private sql: postgres.Sql | undefined;
  private busy = false;
  private retry: NodeJS.Timeout | undefined;
  private retryMs = RETRY_MIN_MS;

  add(url: string, channel: string, handlers: ChangeHandlers): ChangeListener {
    const subscription: Subscription = { channel, handlers, listening: false };
    this.subscriptions.add(subscription);
    this.sql ??= this.connect(url);
    void this.listenAll();
    return {
      mode: "listen",
      get listening() {
        return subscription.listening;
      },
      stop: () => this.remove(subscription),
    };
  }

  private connect(url: string): postgres.Sql {
    // `onnotify` is a connection option postgres.js supports but does not declare.
    return postgres(url, {
      max: 1,
      idle_timeout: 0,
      max_lifetime: 0,
      fetch_types: false,
      connection: { application_name: CHANGE_LISTENER_APPLICATION },
      onnotice: () => {},
      onnotify: (notified: string, payload: string) => {
        for (const s of this.subscriptions) if (s.channel === notified) s.handlers.onChange(payload);
      },
      onclose: () => {
        this.listened.clear();
        const lost = [...this.subscriptions].filter((s) => s.listening);
        for (const s of lost) {
          s.listening = false;
          s.handlers.onLost();
        }
        if (lost.length > 0) {
          const channels = [...new Set(lost.map((s) => s.channel))];
          logger.warn({ channels }, "change listener lost its connection; its caches are off until it listens again");
        }
        if (this.subscriptions.size > 0) this.scheduleListen();
      },
    } as postgres.Options<Record<string, never>>);
  }

  /** Listens to every channel not yet listened to on this connection, then tells their subscriptions. */
  private async listenAll(): Promise<void> {
    const sql = this.sql;
    if (this.busy || !sql) return;
    this.busy = true;
    try {
      for (;;) {
        const missing = [...new Set([...this.subscriptions].map((s) => s.channel))].filter(
          (c) => !this.listened.has(c),
        );
        if (missing.length === 0) break;
        for (const channel of missing) {
          await sql.unsafe(`listen ${channel}`);
          // Every subscription stopped meanwhile (the connection ended) and maybe a new one came.
          if (this.sql !== sql) return;
          this.listened.add(channel);
        }
      }
      this.retryMs = RETRY_MIN_MS;
      for (const s of this.subscriptions) {
        if (s.listening || !this.listened.has(s.channel)) continue;
        s.listening = true;
        s.handlers.onListening();
      }
    } catch {
      this.scheduleListen();
    } finally {
      this.busy = false;
      if (this.sql !== sql) void this.listenAll();
    }
  }

  private scheduleListen(): void {
    if (this.retry || this.subscriptions.size === 0) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      void this.listenAll();
    }, this.retryMs);
    this.retryMs = Math.min(RETRY_MAX_MS, this.retryMs * 2);
  }

  private async remove(subscription: Subscription): Promise<void> {
    subscription.listening = false;
    if (!this.subscriptions.delete(subscription)) return;
    const sql = this.sql;
    if (this.subscriptions.size === 0) {
      clearTimeout(this.retry);
      this.retry = undefined;
      this.sql = undefined;
      this.listened.clear();
      await sql?.end({ timeout: 1 });
      return;
    }
    const { channel } = subscription;
    if ([...this.subscriptions].some((s) => s.channel === channel) || !this.listened.delete(channel)) return;
    await sql?.unsafe(`unlisten ${channel}`).catch(() => {});
  }
}

/** The database's shared listener: its connection ends with its last subscription, and opens again with the next. */
const listenersOf = processWide<Database, SharedListener>("change-listeners", () => new SharedListener());

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
