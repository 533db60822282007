import fs from "node:fs";
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
import type { ExtractTablesWithRelations } from "drizzle-orm";
import { resolveDatabaseUrls, type PoolerMode } from "./pooler";
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
  /** `transaction`: `url` is a transaction-mode pooler (server/db/README.md, "Behind a pooler"). */
  pooler: PoolerMode;
  /** A URL with sessions of its own, for what a transaction pooler cannot carry. */
  directUrl?: string;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** postgres:// URL; when absent the embedded PGlite is used. */
  url?: string;
  /** PGlite data directory; "memory://" for an in-memory database. */
  pgliteDir?: string;
  /**
   * `transaction`: no driver-prepared statements; sessions only through `directUrl`. Absent:
   * read from the URL (`resolveDatabaseUrls`).
   */
  pooler?: PoolerMode;
  directUrl?: string;
  /** Connection pool size for postgres.js. */
  maxConnections?: number;
  /** A PGlite data directory dumped by `dumpDataDir` to start from instead of an empty one. */
  pgliteDataDir?: Blob;
}

/**
 * Where a database's notifications come from: PGlite delivers them in-process; PostgreSQL over a
 * session of its own (the direct URL, or the URL itself when no transaction pooler is in between);
 * behind a transaction pooler without a direct URL there is no session to LISTEN on.
 */
export type Notifications =
  | { kind: "in-process" }
  /** `direct`: the URL is DATABASE_DIRECT_URL, not the pool's own. */
  | { kind: "session"; url: string; direct: boolean }
  | { kind: "unavailable" };

/** What a database was opened with, for parts that open connections of their own (a listener). */
const opened = new WeakMap<object, { pooler: PoolerMode; notifications: Notifications }>();
const closeHooks = new WeakMap<object, (() => Promise<void>)[]>();

export function notificationsOf(db: Executor): Notifications {
  return opened.get(db)?.notifications ?? { kind: "in-process" };
}

export function poolerOf(db: Executor): PoolerMode {
  return opened.get(db)?.pooler ?? "none";
}

/** Runs `hook` when the database is closed, before its pool ends (connections opened beside it). */
export function onDatabaseClose(db: Database, hook: () => Promise<void>): void {
  const hooks = closeHooks.get(db) ?? [];
  hooks.push(hook);
  closeHooks.set(db, hooks);
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  const handle = await openDriver(options);
  opened.set(handle.db, {
    pooler: handle.pooler,
    notifications: !handle.url
      ? { kind: "in-process" }
      : handle.directUrl
        ? { kind: "session", url: handle.directUrl, direct: true }
        : handle.pooler === "none"
          ? { kind: "session", url: handle.url, direct: false }
          : { kind: "unavailable" },
  });
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
    const { url, pooler } = resolveDatabaseUrls(options.url, options.pooler);
    const client = postgres(url, {
      max: options.maxConnections ?? 10,
      // A transaction pooler may run the next execution on a server connection that never saw
      // the statement ("prepared statement does not exist"): unnamed statements only, there.
      prepare: pooler !== "transaction",
      // Nor pipelining there: a query sent behind another on one connection reaches the server
      // the pooler hands back at the first's end, and PgBouncer before 1.21 drops its answer
      // ("got packet from server when not linked"), so the caller waits forever. 0: one at a time.
      ...(pooler === "transaction" ? { max_pipeline: 0 } : {}),
      onnotice: () => {},
    });
    return {
      db: drizzle(client, { schema }) as unknown as Database,
      kind: "postgres",
      url,
      pooler,
      directUrl: options.directUrl,
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
    pooler: "none",
    close: () => client.close(),
  };
}
