import { sql } from "drizzle-orm";
import { notificationsOf, poolerOf, replicasOf, rowsOf, type PoolerMode, type ReplicaHealth } from "@/server/db";
import type { AppContext } from "@/server/core/app-context";
import { revisionCacheFor, type RevisionCacheStats } from "@/server/versioning";

export interface Health {
  status: "ok";
  database: {
    kind: string;
    version: string;
    /** `transaction`: DATABASE_URL is a transaction-mode pooler, so statements are not prepared. */
    pooler: PoolerMode;
    prepared_statements: boolean;
    /** How changes reach this process: a LISTEN session, PGlite in-process, or not at all. */
    notifications: "listen" | "in-process" | "unavailable";
    /** Each read replica's state and lag as its last probe found them (DATABASE_REPLICA_URLS). */
    replicas?: ReplicaHealth[];
  };
  /** Who runs the background work: this process's loops, a drain after each answer, or others. */
  workers: AppContext["config"]["workers"];
  /** The in-process cache of resolved retrieves: size, bounds, hit counts, whether it listens. */
  revision_cache: RevisionCacheStats;
}

const versions = new WeakMap<object, Promise<string>>();

/**
 * The server version string is read once per database: health is the framework floor
 * benchmark's target, so it costs no database round trip per call.
 */
export async function getHealth(app: AppContext): Promise<Health> {
  let version = versions.get(app.db);
  if (!version) {
    version = app.db.execute(sql`select version() as version`).then((r) => rowsOf<{ version: string }>(r)[0].version);
    versions.set(app.db, version);
    version.catch(() => versions.delete(app.db));
  }
  const pooler = poolerOf(app.db);
  const notifications = notificationsOf(app.db).kind;
  // Kept up to date by the replicas' own probes: health still makes no round trip.
  const replicas = replicasOf(app.db)?.health();
  return {
    status: "ok",
    database: {
      kind: app.dbKind,
      version: await version,
      pooler,
      prepared_statements: app.dbKind === "postgres" && pooler === "none",
      notifications: notifications === "session" ? "listen" : notifications,
      ...(replicas ? { replicas } : {}),
    },
    workers: app.config.workers,
    revision_cache: revisionCacheFor(app).stats(),
  };
}
