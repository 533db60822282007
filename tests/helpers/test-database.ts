import { randomBytes } from "node:crypto";
import fs from "node:fs";
import postgres from "postgres";
import { inject } from "vitest";
import { migrateDatabase, openDatabase, withDatabaseName, type DatabaseHandle } from "@/server/db";
import { testDatabaseUrls } from "./test-database-urls";

/**
 * A fresh, migrated database: PGlite in memory, or with DATABASE_URL a new PostgreSQL database
 * created for this test file and dropped afterwards. Both start as copies of the database the
 * global set-up migrated once per run (tests/helpers/database-template.ts). Behind a pooler
 * (test-database-urls.ts) the database is made on the direct server and the app reaches it
 * through the pooler, with its direct URL for LISTEN.
 */
export async function openTestDatabase(): Promise<DatabaseHandle> {
  const urls = testDatabaseUrls();
  if (!urls) {
    const templateFile = templateOf("pgliteTemplateFile");
    const pgliteDataDir = templateFile ? templateBlob(templateFile) : undefined;
    const handle = await openDatabase({ pgliteDir: "memory://", pgliteDataDir });
    if (!pgliteDataDir) await migrateDatabase(handle);
    return handle;
  }
  const template = templateOf("postgresTemplateName");
  const name = `test_${randomBytes(6).toString("hex")}`;
  const baseUrl = urls.directUrl ?? urls.url;
  const admin = postgres(baseUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(template ? `create database ${name} template ${template}` : `create database ${name}`);
  await admin.end();
  const handle = await openDatabase({ ...withDatabaseName(urls, name), maxConnections: 20 });
  if (!template) await migrateDatabase(handle);
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

let readTemplate: { file: string; blob: Blob } | undefined;

/** The dumped data directory (42 MB), read once per worker process: PGlite only reads the blob. */
function templateBlob(file: string): Blob {
  if (readTemplate?.file !== file) readTemplate = { file, blob: new Blob([fs.readFileSync(file)]) };
  return readTemplate.blob;
}

/** The global set-up's database, under vitest; benchmarks reuse these helpers outside it and migrate. */
function templateOf(name: "pgliteTemplateFile" | "postgresTemplateName"): string | null {
  return process.env.VITEST ? inject(name) : null;
}
