import postgres from "postgres";
import { processWide } from "@/server/core/process-wide";
import { notificationsOf, onDatabaseClose, type Database } from "@/server/db";

/**
 * Sends notifications outside any transaction, for a change whose own transaction must not carry
 * its NOTIFY: PostgreSQL serializes the commits of notifying transactions cluster-wide, from
 * pre-commit through the WAL flush, so concurrent commits that notify cannot share a flush
 * (pgbench here, update and commit at 16 clients: 1,423 to 1,595 per second with the notify in
 * the transaction, 3,483 to 3,886 with a notify transaction before each).
 */
export interface ChangeAnnouncer {
  /**
   * Resolves once the notification is committed: listeners receive it from then on. `soon`: it
   * may wait a few milliseconds for company (the next urgent one, which takes it along).
   */
  announce(channel: string, payload: string, options?: { soon?: boolean }): Promise<void>;
}

/**
 * How long a `soon` notification waits for company. Every notifying transaction wakes every
 * listening backend of the database, so a commit's release rides with the next commit's hold.
 */
const SOON_MS = 5;

/**
 * Each statement is its own transaction with `synchronous_commit` off: it writes no data, so its
 * commit need not wait for a flush, and holds the notify lock for microseconds. A crash that
 * lost it would also close every listener's connection, which empties what they cache.
 */
const NOTIFY_SQL = `select count(*) from (select set_config('synchronous_commit', 'off', true)) s,
  json_to_recordset($1::text::json) n(channel text, payload text), lateral (select pg_notify(n.channel, n.payload)) sent`;

interface Queued {
  channel: string;
  payload: string;
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * The process's announcer for `db`, on PostgreSQL where a session listens (none on PGlite, whose
 * one connection a transaction holds, nor behind a pooler that nothing can listen through). Its
 * connection is its own: a transaction that waits for its announcement must not wait for a pool
 * slot it holds. Notifications queued while a statement is out go together in the next one.
 */
export const changeAnnouncerOf = processWide<Database, ChangeAnnouncer | null>("change-announcers", (db) => {
  const notifications = notificationsOf(db);
  if (notifications.kind !== "session") return null;
  const sql = postgres(notifications.url, { max: 1, fetch_types: false, onnotice: () => {} });
  let queue: Queued[] = [];
  let sending = false;
  let waiting: NodeJS.Timeout | undefined;
  const send = async () => {
    clearTimeout(waiting);
    waiting = undefined;
    sending = true;
    while (queue.length > 0) {
      const batch = queue;
      queue = [];
      try {
        await sql.unsafe(NOTIFY_SQL, [JSON.stringify(batch.map(({ channel, payload }) => ({ channel, payload })))], {
          prepare: true,
        });
        for (const q of batch) q.resolve();
      } catch (error) {
        for (const q of batch) q.reject(error);
      }
    }
    sending = false;
  };
  onDatabaseClose(db, async () => {
    // What waits for company goes now: a release left unsent would hold its tags until it runs out.
    if (waiting && !sending) await send();
    await sql.end({ timeout: 1 });
  });
  return {
    announce: (channel, payload, { soon = false } = {}) =>
      new Promise<void>((resolve, reject) => {
        queue.push({ channel, payload, resolve, reject });
        if (sending) return;
        if (!soon) void send();
        else waiting ??= setTimeout(() => void send(), SOON_MS);
      }),
  };
});
