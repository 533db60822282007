import { PgTransaction } from "drizzle-orm/pg-core";
import { newId } from "@/server/core/ids";
import type { Database, Executor } from "@/server/db";
import { events } from "@/server/db/schema";
import { eventBatcherFor } from "./insert-batcher";

export interface NewEvent {
  projectId: string;
  type: string;
  attributes: Record<string, unknown>;
}

/**
 * Writes into the outbox. Pass the transaction of the change that causes the event, so the event
 * exists exactly when the change does. Outside a transaction (read events) concurrent inserts
 * are batched; either way the row is written when this resolves.
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
  if (db instanceof PgTransaction) await db.insert(events).values(row);
  else await eventBatcherFor(db as Database).insert(row);
  return row.id;
}

/** List events carry at most this many references; `count` stays the uncapped total. */
export const LIST_REFERENCE_CAP = 1000;

export function capped<T>(items: T[]): T[] {
  return items.length > LIST_REFERENCE_CAP ? items.slice(0, LIST_REFERENCE_CAP) : items;
}
