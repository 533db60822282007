import { Column, fillPlaceholders, is, sql } from "drizzle-orm";
import type { Executor } from "./database-types";

/** What a Drizzle select or insert builder offers once it is written (before `.execute()`). */
interface QueryBuilder {
  toSQL(): { sql: string; params: unknown[] };
  getSelectedFields?(): Record<string, unknown>;
  execute(): Promise<unknown>;
}

type RowOf<B extends QueryBuilder> = Awaited<ReturnType<B["execute"]>> extends (infer R)[] ? R : never;

export interface PreparedQuery<Row> {
  execute(values?: Record<string, unknown>): Promise<Row[]>;
}

interface Statement {
  text: string;
  params: unknown[];
  /** Output columns in select order, each with the path it takes in the row object. */
  fields: { path: string[]; decode: (value: unknown) => unknown }[];
}

/** A postgres.js query: lazy until `execute()` (or `then`) queues it on its connection. */
interface PostgresJsQuery<T> extends Promise<T> {
  execute(): PostgresJsQuery<T>;
  values(): PostgresJsQuery<unknown[][]>;
}
interface PostgresJsClient {
  unsafe(text: string, params: unknown[], options: { prepare: boolean }): PostgresJsQuery<Record<string, unknown>[]>;
}
interface PgliteClient {
  query(text: string, params: unknown[], options: { rowMode: "array" }): Promise<{ rows: unknown[][] }>;
}

const statements = new Map<string, Statement>();

/**
 * Placeholders whose values travel as text, read the same way by both drivers: JSON as
 * `JSON.stringify` output, timestamps as ISO 8601.
 */
export const jsonPlaceholder = (name: string) => sql`${sql.placeholder(name)}::text::jsonb`;
export const timestampPlaceholder = (name: string) => sql`${sql.placeholder(name)}::timestamptz`;

/**
 * A query written with Drizzle and `sql.placeholder`s, turned into SQL once per process and then
 * run straight on the driver (postgres.js prepares it per connection, except on a transaction
 * pooler's pool, where `prepare: false` on the connection wins), its rows decoded by the
 * columns' own mappers. Works on the database and inside a transaction alike.
 *
 * Why not Drizzle's own `.prepare()`: its execute wraps each call in tracing spans, a cache layer
 * and generic row mapping, several promises deep; under load that was a measurable share of a
 * one-row lookup (see server/http/README.md, "Hot path"). Building the SQL per call cost five times
 * the round trip.
 *
 * `name` identifies the statement process-wide: one builder per name.
 */
export function preparedQuery<B extends QueryBuilder>(
  db: Executor,
  name: string,
  build: (db: Executor) => B,
): PreparedQuery<RowOf<B>> {
  let statement = statements.get(name);
  if (!statement) statements.set(name, (statement = compile(build(db))));
  const s = statement;
  return { execute: (values = {}) => run(db, s, values) as Promise<RowOf<B>[]> };
}

function compile(builder: QueryBuilder): Statement {
  const { sql: text, params } = builder.toSQL();
  const selection = builder.getSelectedFields?.();
  return { text, params, fields: selection ? flatten(selection, []) : [] };
}

/**
 * The order Drizzle writes a selection's columns in: depth-first over the selection object. Only
 * columns and nested objects of them are supported.
 */
function flatten(selection: Record<string, unknown>, prefix: string[]): Statement["fields"] {
  return Object.entries(selection).flatMap(([key, field]) => {
    const path = [...prefix, key];
    if (is(field, Column)) return [{ path, decode: (v: unknown) => (v === null ? null : field.mapFromDriverValue(v)) }];
    if (field === null || typeof field !== "object" || Object.getPrototypeOf(field) !== Object.prototype) {
      throw new Error(`preparedQuery selects columns only; ${path.join(".")} is not a column`);
    }
    return flatten(field as Record<string, unknown>, path);
  });
}

/**
 * `run` and `rawQuery` queue their statement on the connection before they return (postgres.js's
 * `execute()`, where awaiting would queue it a microtask later): statements go out in the order
 * they were called, so a caller may send the next one, or a COMMIT, without waiting for an answer
 * (server/db/README.md, "After the commit").
 */
async function run(db: Executor, statement: Statement, values: Record<string, unknown>): Promise<unknown[]> {
  const params = fillPlaceholders(statement.params, values);
  const client = driverOf(db);
  const rows =
    "unsafe" in client
      ? await client.unsafe(statement.text, params, { prepare: true }).values().execute()
      : (await client.query(statement.text, params, { rowMode: "array" })).rows;
  return rows.map((row) => decode(statement.fields, row));
}

function decode(fields: Statement["fields"], row: unknown[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (let i = 0; i < fields.length; i++) {
    const { path, decode } = fields[i];
    let target = out;
    for (let j = 0; j < path.length - 1; j++) target = (target[path[j]] ??= {}) as Record<string, unknown>;
    target[path[path.length - 1]] = decode(row[i]);
  }
  return out;
}

/**
 * The driver client under a Drizzle database (`$client`) or transaction (its session's client,
 * which for a transaction is the driver's transaction handle).
 */
function driverOf(db: Executor): PostgresJsClient | PgliteClient {
  const handle = db as unknown as {
    $client?: PostgresJsClient | PgliteClient;
    session?: { client: PostgresJsClient | PgliteClient };
  };
  const client = handle.$client ?? handle.session?.client;
  if (!client) throw new Error("No driver client under this Drizzle executor");
  return client;
}

/**
 * Hand-written SQL with `$n` parameters, run straight on the driver (prepared per connection on
 * postgres.js), rows as objects. For statements Drizzle cannot build (partitioned-table DDL,
 * `jsonb_to_recordset` batches, `FOR UPDATE SKIP LOCKED` claims); values travel as text or JSON
 * text and are cast in the SQL, so both drivers read them alike.
 */
export async function rawQuery<Row = Record<string, unknown>>(
  db: Executor,
  text: string,
  params: unknown[] = [],
): Promise<Row[]> {
  const client = driverOf(db) as unknown as {
    unsafe?: (text: string, params: unknown[], options: { prepare: boolean }) => PostgresJsQuery<Row[]>;
    query?: (text: string, params: unknown[]) => Promise<{ rows: Row[] }>;
  };
  if (client.unsafe) return [...(await client.unsafe(text, params, { prepare: params.length > 0 }).execute())];
  return (await client.query!(text, params)).rows;
}
