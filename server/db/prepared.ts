import { PgTransaction } from "drizzle-orm/pg-core";
import type { Executor } from "./client";

interface Prepared {
  execute(values?: Record<string, unknown>): Promise<unknown>;
}

const cache = new WeakMap<object, Map<string, Prepared>>();

/**
 * A query written with `sql.placeholder`s, built once per database and reused: building SQL is
 * most of the cost of a hot lookup (about five times its round trip on PostgreSQL). Inside a
 * transaction the query is built for that transaction.
 */
export function preparedQuery<P extends Prepared>(db: Executor, name: string, build: (db: Executor) => P): P {
  if (db instanceof PgTransaction) return build(db);
  let byName = cache.get(db);
  if (!byName) cache.set(db, (byName = new Map()));
  let query = byName.get(name) as P | undefined;
  if (!query) byName.set(name, (query = build(db)));
  return query;
}
