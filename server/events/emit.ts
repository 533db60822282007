import { is, sql } from "drizzle-orm";
import { PgTransaction } from "drizzle-orm/pg-core";
import { newId } from "@/server/core/ids";
import { jsonPlaceholder, preparedQuery, timestampPlaceholder, type Database, type Executor } from "@/server/db";
import { events } from "@/server/db/schema";
import { eventBatcherFor } from "./insert-batcher";
import { notifyEventsWritten } from "./notify";

export interface NewEvent {
  projectId: string;
  type: string;
  attributes: Record<string, unknown>;
}

const p = (name: string) => sql.placeholder(name);
/** The insert of an event in its change's transaction, built once (see server/db/prepared.ts). */
export const insertEvent = (db: Executor) =>
  db.insert(events).values({
    id: p("id"),
    projectId: p("projectId"),
    eventType: p("eventType"),
    timestamp: timestampPlaceholder("timestamp"),
    createdAt: timestampPlaceholder("timestamp"),
    attributes: jsonPlaceholder("attributes"),
  });

// Past this many unwritten read events a request waits for its own, so a database that cannot
// keep up slows readers down instead of growing memory.
const MAX_READ_EVENT_BACKLOG = 5_000;

/**
 * Writes into the outbox. Pass the transaction of the change that causes the event: the event
 * then exists exactly when the change does. Without a transaction (read events: there is no
 * change to be atomic with) the row is queued into a batched insert that completes within the
 * next few milliseconds, off the request's path; `drainEvents` waits for it.
 */
export async function emitEvent(db: Executor, event: NewEvent, now = new Date()): Promise<string> {
  const row = {
    id: newId(),
    projectId: event.projectId,
    eventType: event.type,
    timestamp: now,
    createdAt: now,
    attributes: event.attributes,
  };
  if (inTransaction(db)) {
    await preparedQuery(db, "events.insertInTransaction", insertEvent).execute({
      id: row.id,
      projectId: row.projectId,
      eventType: row.eventType,
      timestamp: now.toISOString(),
      attributes: JSON.stringify(row.attributes),
    });
    await notifyEventsWritten(db);
    return row.id;
  }
  const batcher = eventBatcherFor(db as Database);
  batcher.enqueue(row);
  if (batcher.backlog > MAX_READ_EVENT_BACKLOG) await batcher.drain();
  return row.id;
}

/**
 * Drizzle's `is` compares entity kinds, not classes: Next.js bundles a copy of Drizzle per route
 * bundle, and a transaction begun on the app's database (made by one copy) is no `instanceof` the
 * class another copy exports. With `instanceof`, events of commits made through tRPC went to the
 * read-event queue and were lost when their transaction closed.
 */
function inTransaction(db: Executor): boolean {
  return is(db, PgTransaction);
}

/** Resolves when every read event queued so far in this process is written. */
export function drainEvents(db: Executor): Promise<void> {
  return inTransaction(db) ? Promise.resolve() : eventBatcherFor(db as Database).drain();
}

/** List events carry at most this many references; `count` stays the uncapped total. */
export const LIST_REFERENCE_CAP = 1000;

export function capped<T>(items: T[]): T[] {
  return items.length > LIST_REFERENCE_CAP ? items.slice(0, LIST_REFERENCE_CAP) : items;
}
