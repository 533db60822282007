import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { migrateDatabase, openDatabase, type DatabaseHandle } from "@/server/db";

/**
 * A fresh, migrated database: PGlite in memory, or with DATABASE_URL a new PostgreSQL database
 * created for this test file and dropped afterwards.
 */
export async function openTestDatabase(): Promise<DatabaseHandle> {
  const baseUrl = process.env.DATABASE_URL;
  if (!baseUrl) {
    const handle = await openDatabase({ pgliteDir: "memory://" });
    await migrateDatabase(handle);
    return handle;
  }
  const name = `test_${randomBytes(6).toString("hex")}`;
  const admin = postgres(baseUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ url: url.toString(), maxConnections: 20 });
  await migrateDatabase(handle);
  return {
    ...handle,
    close: async () => {
      await handle.close();
      const dropper = postgres(baseUrl, { max: 1, onnotice: () => {} });
      await dropper.unsafe(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}
