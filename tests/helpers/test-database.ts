import { randomBytes } from "node:crypto";
import fs from "node:fs";
import postgres from "postgres";
import { inject } from "vitest";
import { migrateDatabase, openDatabase, type DatabaseHandle } from "@/server/db";

/**
 * A fresh, migrated database: PGlite in memory, or with DATABASE_URL a new PostgreSQL database
 * created for this test file and dropped afterwards. Both start as copies of the database the
 * global set-up migrated once per run (tests/helpers/database-template.ts).
 */
export async function openTestDatabase(): Promise<DatabaseHandle> {
  const baseUrl = process.env.DATABASE_URL;
  if (!baseUrl) {
    const templateFile = templateOf("pgliteTemplateFile");
    const pgliteDataDir = templateFile ? templateBlob(templateFile) : undefined;
    const handle = await openDatabase({ pgliteDir: "memory://", pgliteDataDir });
    if (!pgliteDataDir) await migrateDatabase(handle);
    return handle;
  }
  const template = templateOf("postgresTemplateName");
  const name = `test_${randomBytes(6).toString("hex")}`;
  const admin = postgres(baseUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(template ? `create database ${name} template ${template}` : `create database ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ url: url.toString(), maxConnections: 20 });
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
