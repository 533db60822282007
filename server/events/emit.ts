import { PgTransaction } from "drizzle-orm/pg-core";
import { newId } from "@/server/core/ids";
import { logger } from "@/server/core/logger";
import type { Database, Executor } from "@/server/db";
import { events } from "@/server/db/schema";
import { eventBatcherFor } from "./insert-batcher";

export interface NewEvent {
  projectId: string;
  type: string;
  attributes: Record<string, unknown>;
}

// Past this many unwritten read events a request waits for its own, so a database that cannot
// keep up slows readers down instead of growing memory.
const MAX_READ_EVENT_BACKLOG = 5_000;

/**
 * Writes into the outbox. Pass the transaction of the change that causes the event: the event
 * then exists exactly when the change does. Without a transaction (read events: there is no
 * change to be atomic with) the row is queued into a batched insert that completes within the
 * next turn of the event loop, off the request's path; `drainEvents` waits for it.
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
  if (db instanceof PgTransaction) {
    await db.insert(events).values(row);
    return row.id;
  }
  const batcher = eventBatcherFor(db as Database);
  const written = batcher.insert(row);
  if (batcher.backlog > MAX_READ_EVENT_BACKLOG) await written;
  else written.catch((error: unknown) => logger.error({ err: error, eventType: row.eventType }, "read event not written"));
  return row.id;
}

/** Resolves when every read event queued so far in this process is written. */
export function drainEvents(db: Executor): Promise<void> {
  return db instanceof PgTransaction ? Promise.resolve() : eventBatcherFor(db as Database).drain();
}

/** List events carry at most this many references; `count` stays the uncapped total. */
export const LIST_REFERENCE_CAP = 1000;

export function capped<T>(items: T[]): T[] {
  return items.length > LIST_REFERENCE_CAP ? items.slice(0, LIST_REFERENCE_CAP) : items;
}
