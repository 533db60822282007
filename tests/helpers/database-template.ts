import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import type { TestProject } from "vitest/node";
import { migrateDatabase, openDatabase } from "@/server/db";

declare module "vitest" {
  export interface ProvidedContext {
    /** A migrated PGlite data directory (tar file) every test file starts from. */
    pgliteTemplateFile: string | null;
    /** A migrated PostgreSQL database every test file's database is copied from. */
    postgresTemplateName: string | null;
  }
}

/**
 * vitest global set-up: migrates one database per run and hands it to every test file to copy.
 * Opening PGlite from a dumped data directory skips initdb and the migrations (measured: about
 * 0.4 s against 1.7 s per database on this 2-core machine), and `create database ... template`
 * is a file copy where migrating a PostgreSQL database is a few hundred statements.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const baseUrl = process.env.DATABASE_URL;
  if (!baseUrl) {
    const handle = await openDatabase({ pgliteDir: "memory://" });
    await migrateDatabase(handle);
    const client = (handle.db as unknown as { $client: { dumpDataDir(c: "none"): Promise<Blob> } }).$client;
    const dump = await client.dumpDataDir("none");
    await handle.close();
    const file = path.join(os.tmpdir(), `agent-service-test-${process.pid}-${randomBytes(4).toString("hex")}.tar`);
    fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
    project.provide("pgliteTemplateFile", file);
    project.provide("postgresTemplateName", null);
    return async () => fs.rmSync(file, { force: true });
  }
  const name = `test_template_${randomBytes(6).toString("hex")}`;
  const admin = postgres(baseUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ url: url.toString(), maxConnections: 1 });
  await migrateDatabase(handle);
  await handle.close();
  project.provide("pgliteTemplateFile", null);
  project.provide("postgresTemplateName", name);
  return async () => {
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  };
}
