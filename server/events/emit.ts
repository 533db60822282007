import { is } from "drizzle-orm";
import { PgTransaction } from "drizzle-orm/pg-core";
import { newId } from "@/server/core/ids";
import { rawQuery, type Database, type Executor } from "@/server/db";
import { projectExistsLockedSql } from "@/server/auth";
import { redactForStorage } from "@/server/redaction";
import { changeEventTakers, type EventTakers } from "./event-takers";
import { eventBatcherFor } from "./insert-batcher";
import { EVENTS_CHANNEL } from "./notify";

export interface NewEvent {
  projectId: string;
  type: string;
  /** Or serialised ahead (`serializedAttributes`), for events that repeat the same attributes. */
  attributes: Record<string, unknown> | SerializedAttributes;
}

const SERIALIZED = Symbol.for("agent-service.serialized-attributes");

/**
 * Attributes already serialised as JSON: a read answered from memory reports the same references
 * every time, so their JSON is made once and the event insert does not serialise them again.
 */
export interface SerializedAttributes {
  readonly [SERIALIZED]: string;
}

export function serializedAttributes(json: string): SerializedAttributes {
  return { [SERIALIZED]: json };
}

function attributesJson(attributes: NewEvent["attributes"]): string {
  return SERIALIZED in attributes ? (attributes as SerializedAttributes)[SERIALIZED] : JSON.stringify(attributes);
}

/**
 * The insert of a change's event in its change's transaction, for the outbox's takers (see
 * event-takers.ts): an event nothing takes is written already fanned out, and fan-out is woken in
 * the same statement only when something does (a fan-out transaction per commit, claiming an
 * event nobody wanted, was most of what a commit cost beyond its own statements). It writes only
 * when the project's row exists, and locks that row `FOR KEY SHARE` as a foreign key's check
 * would (the table has none; see server/events/README.md): no event for a project that does not
 * exist, and a project's delete waits for this transaction, then deletes the event with it.
 * Parameters: id, project id, type, time (ISO 8601), attributes (JSON text). One row when
 * written, none when the project does not exist.
 */
export function changeEventInsertSql(takers: EventTakers): string {
  return `with written as (
  insert into events (id, project_id, event_type, "timestamp", created_at, attributes, fanned_out_at)
  select $1::uuid, $2::uuid, $3::text, $4::timestamptz, $4::timestamptz, $5::text::jsonb,
    case when ${takers("$2::uuid", "$3::text")} then null else $4::timestamptz end
  where ${projectExistsLockedSql("$2::uuid")}
  returning fanned_out_at
)
select (select pg_notify('${EVENTS_CHANNEL}', '') where w.fanned_out_at is null) is not null as woke_fan_out
from written w`;
}

const insertStatements = new WeakMap<EventTakers, string>();

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
  if (inTransaction(db)) return sendChangeEvent(db, await changeEventInsert(db, event, now));
  const id = newId();
  const attributes = attributesJson(event.attributes);
  const batcher = eventBatcherFor(db as Database);
  batcher.enqueue({ id, projectId: event.projectId, eventType: event.type, timestamp: now, attributes });
  if (batcher.backlog > MAX_READ_EVENT_BACKLOG) await batcher.drain();
  return id;
}

/** A change's event with its attributes redacted and serialised: what `sendChangeEvent` inserts. */
export interface ChangeEventInsert {
  id: string;
  type: string;
  projectId: string;
  /** ISO 8601. */
  time: string;
  /** JSON text. */
  attributes: string;
}

/**
 * A change's event insert, made ready: its attributes redacted by the project's rules (which may
 * read them), so that `sendChangeEvent` has nothing left to wait for.
 */
export async function changeEventInsert(db: Executor, event: NewEvent, now = new Date()): Promise<ChangeEventInsert> {
  return {
    id: newId(),
    type: event.type,
    projectId: event.projectId,
    time: now.toISOString(),
    attributes: attributesJson(await redactedForStorage(db, event)),
  };
}

/**
 * Sends a change's event insert in `tx`, the change's transaction: queued on the connection before
 * this returns, so a caller may send more behind it without waiting. Resolves to the event's id.
 */
export async function sendChangeEvent(tx: Executor, insert: ChangeEventInsert): Promise<string> {
  const takers = changeEventTakers();
  let text = insertStatements.get(takers);
  if (!text) insertStatements.set(takers, (text = changeEventInsertSql(takers)));
  const { id, type, projectId, time, attributes } = insert;
  const written = await rawQuery(tx, text, [id, projectId, type, time, attributes]);
  if (written.length === 0) throw new Error(`Event ${type} not written: project ${projectId} does not exist`);
  return id;
}

/**
 * A change's attributes as the project's redaction rules leave them: they carry what a person typed
 * (a commit or deploy message, an evaluation's name), and `POST /api/events/query` answers them as
 * stored. Read events (the batched path) carry references, counts and user ids only.
 */
async function redactedForStorage(db: Executor, event: NewEvent): Promise<NewEvent["attributes"]> {
  if (SERIALIZED in event.attributes) return event.attributes;
  return redactForStorage(db, event.projectId, event.attributes);
}

/**
 * Drizzle's `is` compares entity kinds, not classes: Next.js bundles a copy of Drizzle per route
 * bundle, and a transaction begun on the app's database (made by one copy) is no `instanceof` the
 * class another copy exports. With `instanceof`, events of commits made through tRPC went to the
 * read-event queue and were lost when their transaction closed.
 */
function inTransaction(db: Executor): boolean {
  let found = executorKinds.get(db);
  if (found === undefined) executorKinds.set(db, (found = is(db, PgTransaction)));
  return found;
}

// `is` walks the class chain; an app's database emits every read event, so its answer is kept.
const executorKinds = new WeakMap<Executor, boolean>();

/** Resolves when every read event queued so far in this process is written. */
export function drainEvents(db: Executor): Promise<void> {
  return inTransaction(db) ? Promise.resolve() : eventBatcherFor(db as Database).drain();
}

/** List events carry at most this many references; `count` stays the uncapped total. */
export const LIST_REFERENCE_CAP = 1000;

export function capped<T>(items: T[]): T[] {
  return items.length > LIST_REFERENCE_CAP ? items.slice(0, LIST_REFERENCE_CAP) : items;
}
