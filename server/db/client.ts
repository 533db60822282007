import fs from "node:fs";
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
import type { ExtractTablesWithRelations } from "drizzle-orm";
import * as schema from "./schema";

export type Schema = typeof schema;
// Both drivers produce a PgDatabase; code is written against this common type.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Database = PgDatabase<any, Schema>;
export type Transaction = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Functions that may run inside a caller's transaction take this. */
export type Executor = Database | Transaction;

export type DatabaseKind = "pglite" | "postgres";

export interface DatabaseHandle {
  db: Database;
  kind: DatabaseKind;
  /** Set for PostgreSQL, so tools that need their own connection can open one. */
  url?: string;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** postgres:// URL; when absent the embedded PGlite is used. */
  url?: string;
  /** PGlite data directory; "memory://" for an in-memory database. */
  pgliteDir?: string;
  /** Connection pool size for postgres.js. */
  maxConnections?: number;
  /** A PGlite data directory dumped by `dumpDataDir` to start from instead of an empty one. */
  pgliteDataDir?: Blob;
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  if (options.url) {
    const { default: postgres } = await import("postgres");
    const { drizzle } = await import("drizzle-orm/postgres-js");
    const client = postgres(options.url, {
      max: options.maxConnections ?? 10,
      onnotice: () => {},
    });
    return {
      db: drizzle(client, { schema }) as unknown as Database,
      kind: "postgres",
      url: options.url,
      close: () => client.end({ timeout: 5 }),
    };
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const dir = options.pgliteDir ?? "memory://";
  if (!dir.startsWith("memory://")) fs.mkdirSync(dir, { recursive: true });
  const client = await PGlite.create(dir, options.pgliteDataDir ? { loadDataDir: options.pgliteDataDir } : {});
  return {
    db: drizzle(client, { schema }) as unknown as Database,
    kind: "pglite",
    close: () => client.close(),
  };
}
