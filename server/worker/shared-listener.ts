import postgres from "postgres";
import { logger } from "@/server/core/logger";
import { processWide } from "@/server/core/process-wide";
import { onDatabaseClose, type Database } from "@/server/db";

/** How the listening connection shows in `pg_stat_activity` (an operator's, and the loss tests', handle on it). */
export const CHANGE_LISTENER_APPLICATION = "agent-service change listener";

export interface SubscriptionHandlers {
  /** A notification on the subscription's channel: its payload. */
  onChange(payload: string): void;
  /** Listening started, or started again after a loss: notifications in between were not seen. */
  onListening(): void;
  /** The listening connection was lost: notifications are not seen until `onListening`. */
  onLost(): void;
  /** An attempt to listen failed while this subscription was not listening: retried, unless the database closed. */
  onFailed?(error: unknown): void;
}

export interface Subscribed {
  readonly listening: boolean;
  stop(): Promise<void>;
}

interface Subscription {
  channel: string;
  handlers: SubscriptionHandlers;
  listening: boolean;
}

const RETRY_MIN_MS = 50;
const RETRY_MAX_MS = 5_000;

/**
 * One connection per database (pool) for every LISTEN of the process on it: the change caches'
 * and the workers' wake-ups. PostgreSQL wakes every listening backend of a database for every
 * notifying commit, whatever its channels (measured here: a notify-only transaction took 0.06 ms
 * with no other listener and 0.2 ms with six idle ones), and each woken backend writes to its
 * client, so a process has one such backend, not one per listener. Not postgres.js's `listen()`,
 * which re-listens silently: the loss is every subscription's and each is told at once
 * (`onLost`), and told again when its channel is listened to on the next connection
 * (`onListening`), retried with backoff.
 */
class SharedListener {
  private readonly subscriptions = new Set<Subscription>();
  private readonly listened = new Set<string>();
  private sql: postgres.Sql | undefined;
  private busy = false;
  private retry: NodeJS.Timeout | undefined;
  private retryMs = RETRY_MIN_MS;

  add(url: string, channel: string, handlers: SubscriptionHandlers): Subscribed {
    const subscription: Subscription = { channel, handlers, listening: false };
    this.subscriptions.add(subscription);
    this.sql ??= this.connect(url);
    void this.listenAll();
    return {
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
          logger.warn(
            { channels },
            "the shared listener lost its connection; its listeners are off until it listens again",
          );
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
          await sql.unsafe(`listen ${quoted(channel)}`);
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
    } catch (error) {
      for (const s of [...this.subscriptions]) if (!s.listening) s.handlers.onFailed?.(error);
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

  /** The database closes: the connection ends, and every subscription with it (one not yet listening fails). */
  async close(): Promise<void> {
    const ended = [...this.subscriptions];
    this.subscriptions.clear();
    const disconnected = this.disconnect();
    const closed = new Error("the database is closed");
    for (const s of ended) {
      if (!s.listening) s.handlers.onFailed?.(closed);
      else {
        s.listening = false;
        s.handlers.onLost();
      }
    }
    await disconnected;
  }

  /** Ends the connection (a next subscription opens another) and any retry pending on it. */
  private async disconnect(): Promise<void> {
    const sql = this.sql;
    clearTimeout(this.retry);
    this.retry = undefined;
    this.sql = undefined;
    this.listened.clear();
    await sql?.end({ timeout: 1 });
  }

  private async remove(subscription: Subscription): Promise<void> {
    subscription.listening = false;
    if (!this.subscriptions.delete(subscription)) return;
    if (this.subscriptions.size === 0) return this.disconnect();
    const { channel } = subscription;
    if ([...this.subscriptions].some((s) => s.channel === channel) || !this.listened.delete(channel)) return;
    await this.sql?.unsafe(`unlisten ${quoted(channel)}`).catch(() => {});
  }
}

/** As postgres.js's `listen()` names a channel: its case kept, as `pg_notify` takes it. */
const quoted = (channel: string) => `"${channel.replace(/"/g, '""')}"`;

/**
 * The database's shared listener: its connection ends with its last subscription, and opens again
 * with the next; it ends with the database too, with the subscriptions nobody stops (a process-wide
 * hub's), as the pool's own `listen()` connection did.
 */
export const sharedListenerOf = processWide<Database, SharedListener>("change-listeners", (db) => {
  const listener = new SharedListener();
  onDatabaseClose(db, () => listener.close());
  return listener;
});
