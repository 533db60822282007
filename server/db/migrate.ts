import path from "node:path";
import { analyzeGrownTables } from "./analyze-grown-tables";
import type { DatabaseHandle } from "./client";

export const MIGRATIONS_DIR = path.join(process.cwd(), "drizzle");

// Any constant works; it only has to be the same in every process that migrates.
const MIGRATION_LOCK = 7_241_001;

/**
 * Applies the committed SQL migrations. On PostgreSQL they run in one transaction that first
 * takes an advisory lock, so concurrent start-ups of several app or worker processes take turns;
 * the lock is transaction-scoped, so this also works through a transaction pooler (whose next
 * statement may land on another server connection), though `directUrl` is used when given. The
 * bookkeeping is Drizzle's (`drizzle.__drizzle_migrations`, applied by folder time). Tables the
 * migrations changed in bulk are analyzed afterwards (server/db/README.md).
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
  const { readMigrationFiles } = await import("drizzle-orm/migrator");
  const migrations = readMigrationFiles({ migrationsFolder });
  const client = postgres(handle.directUrl ?? handle.url!, { max: 1, prepare: false, onnotice: () => {} });
  try {
    await client.begin(async (tx) => {
      await tx.unsafe(`select pg_advisory_xact_lock(${MIGRATION_LOCK})`);
      await tx.unsafe(`create schema if not exists drizzle`);
      await tx.unsafe(
        `create table if not exists drizzle.__drizzle_migrations (id serial primary key, hash text not null, created_at bigint)`,
      );
      const [last] = await tx.unsafe(
        `select created_at from drizzle.__drizzle_migrations order by created_at desc limit 1`,
      );
      for (const migration of migrations) {
        if (last && Number(last.created_at) >= migration.folderMillis) continue;
        for (const statement of migration.sql) if (statement.trim()) await tx.unsafe(statement);
        await tx.unsafe(`insert into drizzle.__drizzle_migrations (hash, created_at) values ($1, $2)`, [
          migration.hash,
          migration.folderMillis,
        ]);
      }
    });
    // A migration that rewrote or filled a table leaves it without current statistics.
    await analyzeGrownTables(drizzle(client) as never);
  } finally {
    await client.end({ timeout: 5 });
  }
}
