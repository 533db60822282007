import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
import type { ExtractTablesWithRelations } from "drizzle-orm";

/**
 * The database types, apart from client.ts so the files client.ts opens can name them without a cycle.
 *
 * No schema is given to Drizzle: nothing uses its relational API (`db.query.<table>`), and with a
 * schema every transaction object builds a query builder per table (64 of them, about 80 µs a
 * transaction: a tenth of a commit's own CPU; bench/README.md, "versioning, commits").
 */
export type Schema = Record<string, never>;
// Both drivers produce a PgDatabase; code is written against this common type.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the two drivers differ in their query-result type parameter
export type Database = PgDatabase<any, Schema>;
export type Transaction = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Functions that may run inside a caller's transaction take this. */
export type Executor = Database | Transaction;
