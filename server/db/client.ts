import fs from "node:fs";
import { logger } from "@/server/core/logger";
import { resolveDatabaseUrls, type PoolerMode } from "./pooler";
import { switchToPoolerOnSymptom } from "./pooler-symptoms";
import { describeDatabaseFailure } from "./database-failure";
import { openReplicas } from "./open-replicas";

import type { Database, Executor } from "./database-types";

export type { Database, Executor, Schema, Transaction } from "./database-types";

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
  /** Read replicas of `url` (DATABASE_REPLICA_URLS): see read-routing.ts. */
  replicaUrls?: readonly string[];
  /** REPLICA_MAX_LAG_MS: a replica further behind is skipped. */
  replicaMaxLagMs?: number;
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

/**
 * What a database was opened with, for parts that open connections of their own (a listener); its
 * pooler becomes `transaction` when a pooler nothing named shows itself (pooler-symptoms.ts).
 */
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
  if (options.replicaUrls?.length) {
    if (handle.kind !== "postgres") {
      await handle.close();
      throw new Error("Read replicas need a PostgreSQL DATABASE_URL; the embedded database has none");
    }
    const replicas = await openReplicas(
      handle.db,
      options.replicaUrls,
      options.replicaMaxLagMs ?? 5_000,
      options.maxConnections ?? 10,
    );
    onDatabaseClose(handle.db, () => replicas.close());
  }
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
    const { url, pooler } = resolveDatabaseUrls(options.url, options.pooler, options.directUrl);
    const connect = (transactionPooler: boolean) =>
      postgres(url, {
        max: options.maxConnections ?? 10,
        // A transaction pooler may run the next execution on a server connection that never saw
        // the statement ("prepared statement does not exist"): unnamed statements only, there.
        prepare: !transactionPooler,
        // Nor pipelining there: a query sent behind another on one connection reaches the server
        // the pooler hands back at the first's end, and PgBouncer before 1.21 drops its answer
        // ("got packet from server when not linked"), so the caller waits forever. 0: one at a time.
        ...(transactionPooler ? { max_pipeline: 0 } : {}),
        onnotice: () => {},
      });
    // A pooler nothing named shows itself at its first missing prepared statement: from then on
    // the pool is made as for one, and the log says once what to set.
    const pooled = pooler === "transaction" ? connect(true) : undefined;
    const pool = pooled
      ? { client: pooled, end: (o: { timeout: number }) => pooled.end(o) }
      : switchToPoolerOnSymptom(
          connect(false),
          () => connect(true),
          (error) => {
            const state = opened.get(db);
            if (state) state.pooler = "transaction";
            logger.warn(
              { database_error: describeDatabaseFailure(error) },
              "DATABASE_URL behaves as a transaction pooler (a prepared statement was missing on the connection it ran on), so statements are no longer prepared nor pipelined from now on. Set DATABASE_POOLER=transaction, add ?pgbouncer=true to DATABASE_URL, or set DATABASE_DIRECT_URL to the server itself, so the service starts that way (and LISTENs only on the direct URL)",
            );
          },
        );
    const client = pool.client;
    const db = drizzle(client) as unknown as Database;
    return {
      db,
      kind: "postgres",
      url,
      pooler,
      directUrl: options.directUrl,
      close: () => pool.end({ timeout: 5 }),
    };
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const dir = options.pgliteDir ?? "memory://";
  if (!dir.startsWith("memory://")) fs.mkdirSync(dir, { recursive: true });
  const client = await PGlite.create(dir, options.pgliteDataDir ? { loadDataDir: options.pgliteDataDir } : {});
  return {
    db: drizzle(client) as unknown as Database,
    kind: "pglite",
    pooler: "none",
    close: () => client.close(),
  };
}
