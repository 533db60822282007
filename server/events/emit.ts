import { sql } from "drizzle-orm";
import { newId } from "@/server/core/ids";
import { preparedQuery, type Executor } from "@/server/db";
import { events } from "@/server/db/schema";

export interface NewEvent {
  projectId: string;
  type: string;
  attributes: Record<string, unknown>;
}

const p = (name: string) => sql.placeholder(name);

// Read events are written on every retrieve, so the insert is a prepared query.
const insertEvent = (db: Executor) =>
  db
    .insert(events)
    .values({ id: p("id"), projectId: p("projectId"), eventType: p("eventType"), timestamp: p("now"), createdAt: p("now"), attributes: p("attributes") })
    .prepare("insert_event");

/**
 * Writes into the outbox. Pass the transaction of the change that causes the event, so the event
 * exists exactly when the change does.
 */
export async function emitEvent(db: Executor, event: NewEvent, now = new Date()): Promise<string> {
  const id = newId();
  await preparedQuery(db, "insertEvent", insertEvent).execute({
    id,
    projectId: event.projectId,
    eventType: event.type,
    now,
    attributes: event.attributes,
  });
  return id;
}

/** List events carry at most this many references; `count` stays the uncapped total. */
export const LIST_REFERENCE_CAP = 1000;

export function capped<T>(items: T[]): T[] {
  return items.length > LIST_REFERENCE_CAP ? items.slice(0, LIST_REFERENCE_CAP) : items;
}
