import { sql } from "drizzle-orm";
import { rowsOf } from "@/server/db";
import type { AppContext } from "@/server/core/app-context";
import { revisionCacheFor, type RevisionCacheStats } from "@/server/versioning";

export interface Health {
  status: "ok";
  database: { kind: string; version: string };
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
  return {
    status: "ok",
    database: { kind: app.dbKind, version: await version },
    revision_cache: revisionCacheFor(app).stats(),
  };
}
