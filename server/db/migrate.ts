import path from "node:path";
import { analyzeGrownTables } from "./analyze-grown-tables";
import type { DatabaseHandle } from "./client";

export const MIGRATIONS_DIR = path.join(process.cwd(), "drizzle");

// Any constant works; it only has to be the same in every process that migrates.
const MIGRATION_LOCK = 7_241_001;

/**
 * Applies the committed SQL migrations. On PostgreSQL an advisory lock, held on one dedicated
 * connection, makes concurrent start-ups of several app or worker processes take turns. Tables
 * the migrations changed in bulk are analyzed afterwards (server/db/README.md).
 */
export async function migrateDatabase(handle: DatabaseHandle, migrationsFolder = MIGRATIONS_DIR): Promise<void> {
  if (handle.kind === "pglite") {
    const { migrate } = await import("drizzle-orm/pglite/migrator");
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the PGlite migrator wants its own driver type, which this union of drivers is not
    await migrate(handle.db as any, { migrationsFolder });
    await analyzeGrownTables(handle.db);
    return;
  }
  const { default: postgres } = await import("postgres");
  const { drizzle } = await import("drizzle-orm/postgres-js");
  const { migrate } = await import("drizzle-orm/postgres-js/migrator");
  const client = postgres(handle.url!, { max: 1, onnotice: () => {} });
  try {
    await client`select pg_advisory_lock(${MIGRATION_LOCK})`;
    const db = drizzle(client);
    await migrate(db, { migrationsFolder });
    // A migration that rewrote or filled a table leaves it without current statistics.
    await analyzeGrownTables(db as never);
    await client`select pg_advisory_unlock(${MIGRATION_LOCK})`;
  } finally {
    await client.end({ timeout: 5 });
  }
}
