import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { createAccount } from "@/server/auth";
import { createApiDoors, PROJECT_SETUPS } from "@/server/boot";
import type { AppContext } from "@/server/core/app-context";
import { loadConfig } from "@/server/core/config";
import { logger } from "@/server/core/logger";
import {
  openDatabase,
  poolerOf,
  rawQuery,
  resolveDatabaseUrls,
  withDatabaseName,
  type DatabaseHandle,
  type Executor,
} from "@/server/db";
import { verifySecretKey } from "@/server/encryption";
import { createTestApp, type TestApp } from "../helpers/test-app";
import { testDatabaseUrls } from "../helpers/test-database-urls";
import { within } from "../helpers/within";

describe("what says DATABASE_URL is a transaction pooler", () => {
  const pooled = "postgres://app@db.example.com:6433/app";
  const direct = "postgres://app@db.example.com:5432/app";

  it("is DATABASE_DIRECT_URL beside it, reaching another server or port", () => {
    expect(resolveDatabaseUrls(pooled, undefined, direct).pooler).toBe("transaction");
    expect(loadConfig({ DATABASE_URL: pooled, DATABASE_DIRECT_URL: direct }).databasePooler).toBe("transaction");
    // The same server twice is no pooler; an explicit DATABASE_POOLER wins over either.
    expect(resolveDatabaseUrls(direct, undefined, "postgres://other@db.example.com:5432/app").pooler).toBe("none");
    expect(
      loadConfig({ DATABASE_URL: pooled, DATABASE_DIRECT_URL: direct, DATABASE_POOLER: "none" }).databasePooler,
    ).toBe("none");
    expect(resolveDatabaseUrls(pooled).pooler).toBe("none");
  });
});

/**
 * PgBouncer in transaction mode reached by a URL that says nothing of it: not `?pgbouncer=true`,
 * not port 6432, no DATABASE_POOLER, the commonest slip. CI runs this file through PgBouncer on
 * port 6433 (.ci/run: DATABASE_URL is the pooler, TEST_DATABASE_DIRECT_URL the server itself).
 */
describe.skipIf(!process.env.DATABASE_URL || !process.env.TEST_DATABASE_DIRECT_URL)(
  "through a transaction pooler whose URL does not say so",
  () => {
    let t: TestApp;
    let ownerKey: string;
    const urls = () => testDatabaseUrls()!;

    beforeAll(async () => {
      const url = new URL(urls().url);
      // The slip this file is about: nothing in the URL names the pooler.
      expect(url.port).not.toBe("6432");
      expect(url.searchParams.has("pgbouncer")).toBe(false);
      t = await createTestApp();
      ({ key: ownerKey } = await t.newProject());
    });
    afterAll(() => t?.close());

    /** An app process over `handle`, as a second server on it would run. */
    const appOver = (handle: DatabaseHandle) => {
      const context: AppContext = { ...t.context, db: handle.db };
      const { web } = createApiDoors(context);
      return async (method: string, path: string, key: string, body?: unknown) => {
        const response = await web(
          new Request(`http://localhost${path}`, {
            method,
            headers: { authorization: `ApiKey ${key}`, "content-type": "application/json" },
            body: body === undefined ? undefined : JSON.stringify(body),
          }),
        );
        return { status: response.status, body: await response.json() };
      };
    };

    /** A fresh key made through `call`, then used many times at once: every answer a 200. */
    const freshKeyWorks = async (call: ReturnType<typeof appOver>, key: string) => {
      const created = await call("POST", "/api/keys", key, { name: "fresh" });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const fresh = created.body.api_key.key as string;
      for (let round = 0; round < 3; round++) {
        const answers = await within(
          30_000,
          "40 calls with the fresh key",
          Promise.all(Array.from({ length: 40 }, () => call("GET", "/api/keys", fresh))),
        );
        expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
        // Past the key cache's bound, so each round looks the key up again.
        t.advanceClock(60_000);
      }
    };

    it("takes it for a transaction pooler when DATABASE_DIRECT_URL is set beside it: a fresh key works", async () => {
      const handle = await openDatabase({ url: t.database.url, directUrl: t.database.directUrl, maxConnections: 5 });
      try {
        expect(handle.pooler).toBe("transaction");
        await freshKeyWorks(appOver(handle), ownerKey);
      } finally {
        await handle.close();
      }
    });

    it("stops preparing at the first missing prepared statement, says once what to set, and a fresh key works", async () => {
      // A database only this test reaches, so the pooler's server connections to it are known:
      // one, until a second client holds it.
      const name = `test_unmarked_${randomBytes(6).toString("hex")}`;
      const admin = postgres(urls().directUrl!, { max: 1, onnotice: () => {} });
      const template = inject("postgresTemplateName");
      await admin.unsafe(`create database ${name}${template ? ` template ${template}` : ""}`);
      const poolerUrl = withDatabaseName(urls(), name).url;
      const handle = await openDatabase({ url: poolerUrl, maxConnections: 1 });
      const warn = vi.spyOn(logger, "warn");
      try {
        expect(handle.pooler).toBe("none");
        await verifySecretKey(handle.db, t.context.secrets);
        const account = await createAccount(handle.db, PROJECT_SETUPS, {
          email: "unmarked@test.local",
          projectName: "u",
        });
        const inTransaction = (db: Executor, n: number) =>
          (db as typeof handle.db).transaction(
            async (tx) => (await rawQuery<{ n: number }>(tx, "select $1::int as n", [n]))[0].n,
          );
        // Prepared on the one server connection the pooler has for this database...
        expect(await inTransaction(handle.db, 1)).toBe(1);
        // ...which another client now holds, so the next transaction runs on a new one.
        const failed = await whileAnotherClientHoldsAConnection(poolerUrl, () =>
          inTransaction(handle.db, 2).then(
            () => null,
            (error: unknown) => error,
          ),
        );
        expect(codeOf(failed)).toBe("26000");
        expect(poolerOf(handle.db)).toBe("transaction");
        const said = warn.mock.calls.filter(([, message]) => String(message).includes("DATABASE_POOLER=transaction"));
        expect(said).toHaveLength(1);

        // Unprepared from now on: the same transaction on whichever connection the pooler gives.
        expect(await whileAnotherClientHoldsAConnection(poolerUrl, () => inTransaction(handle.db, 3))).toBe(3);
        await whileAnotherClientHoldsAConnection(poolerUrl, () => freshKeyWorks(appOver(handle), account.secret));
        expect(
          warn.mock.calls.filter(([, message]) => String(message).includes("DATABASE_POOLER=transaction")),
        ).toHaveLength(1);
      } finally {
        warn.mockRestore();
        await handle.close();
        await admin.unsafe(`drop database if exists ${name} with (force)`);
        await admin.end();
      }
    });
  },
);

/** Runs `work` while a second client of the pooler keeps a transaction (and so a server connection) open. */
async function whileAnotherClientHoldsAConnection<T>(poolerUrl: string, work: () => Promise<T>): Promise<T> {
  const holder = postgres(poolerUrl, { max: 1, prepare: false, onnotice: () => {} });
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let holding!: () => void;
  const held = new Promise<void>((resolve) => (holding = resolve));
  const transaction = holder.begin(async (sql) => {
    await sql`select 1`;
    holding();
    await released;
  });
  try {
    await within(10_000, "the second client's transaction", held);
    return await work();
  } finally {
    release();
    await transaction;
    await holder.end();
  }
}

function codeOf(error: unknown): unknown {
  let current = error as { code?: unknown; cause?: unknown } | null;
  while (current && current.code === undefined && current.cause) current = current.cause as typeof current;
  return current?.code;
}
