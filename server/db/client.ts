import fs from "node:fs";
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
import type { ExtractTablesWithRelations } from "drizzle-orm";
import * as schema from "./schema";

export type Schema = typeof schema;
// Both drivers produce a PgDatabase; code is written against this common type.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the two drivers differ in their query-result type parameter
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

/** What a database was opened with, for parts that open connections of their own (a listener). */
const urls = new WeakMap<object, string>();
const closeHooks = new WeakMap<object, (() => Promise<void>)[]>();

/** The postgres:// URL a database was opened with; undefined for PGlite. */
export function databaseUrlOf(db: Executor): string | undefined {
  return urls.get(db);
}

/** Runs `hook` when the database is closed, before its pool ends (connections opened beside it). */
export function onDatabaseClose(db: Database, hook: () => Promise<void>): void {
  const hooks = closeHooks.get(db) ?? [];
  hooks.push(hook);
  closeHooks.set(db, hooks);
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  const handle = await openDriver(options);
  if (handle.url) urls.set(handle.db, handle.url);
  const closeDriver = handle.close;
  handle.close = async () => {
    await Promise.all((closeHooks.get(handle.db) ?? []).map((hook) => hook()));
    await closeDriver();
  };
  return handle;
}

async function openDriver(options: OpenDatabaseOptions): Promise<DatabaseHandle> {
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
