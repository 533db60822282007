import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateDatabase, openDatabase, rawQuery, withDatabaseName } from "@/server/db";
import { anotherInstance, type AppInstance } from "../helpers/app-instance";
import { sseReader } from "../helpers/sse-reader";
import { createTestApp, type TestApp } from "../helpers/test-app";
import { testDatabaseUrls } from "../helpers/test-database-urls";
import { within } from "../helpers/within";
import { uniq } from "../versioning/helpers";

/**
 * Two app instances behind a transaction-mode pooler without a direct URL, as serverless
 * functions on Neon's or Supabase's pooled URL run when only that URL is given: no prepared
 * statements, no LISTEN, caches bounded by CACHE_TTL_WITHOUT_LISTEN_MS. On plain PostgreSQL the
 * instances run in that mode all the same; CI runs this file through PgBouncer in transaction
 * mode (scripts/ci/pgbouncer.sh), where a prepared statement or a session lock would break.
 */
describe.skipIf(!process.env.DATABASE_URL)("behind a transaction pooler without a direct URL", () => {
  let t: TestApp;
  let a: AppInstance;
  let b: AppInstance;
  let key: string;
  const ttlMs = 1_000;
  const base = "/api/applications";

  beforeAll(async () => {
    t = await createTestApp({ cacheTtlWithoutListenMs: ttlMs });
    ({ key } = await t.newProject());
    const pooled = { pooler: "transaction", directUrl: null } as const;
    a = await anotherInstance(t, {}, pooled);
    b = await anotherInstance(t, {}, pooled);
  });
  afterAll(async () => {
    await Promise.all([a, b].map((i) => i?.close()));
    await t?.close();
  });

  const post = async (instance: AppInstance, route: string, body: unknown, as = key) => {
    const res = await instance.call("POST", route, { key: as, body });
    expect(res.status, res.text).toBe(200);
    return res.body as Record<string, any>;
  };
  const staging = (instance: AppInstance, slug: string) =>
    post(instance, `${base}/revisions/retrieve`, {
      application_ref: { slug },
      environment_ref: { slug: "staging" },
    });
  const health = async (instance: AppInstance) => (await instance.call("GET", "/api/health")).body;

  it("says so in /api/health: no prepared statements, no notifications, caches bounded by expiry", async () => {
    const body = await health(a);
    expect(body.database).toMatchObject({
      kind: "postgres",
      pooler: "transaction",
      prepared_statements: false,
      notifications: "unavailable",
    });
    expect(body.revision_cache).toMatchObject({ coherence: "expiry", listening: false, ttl_ms: ttlMs });
    // The test app itself reaches the database as the suite was configured, listening.
    expect((await t.call("GET", "/api/health")).body.revision_cache).toMatchObject({ coherence: "listen" });
  });

  it("commits and deploys through either instance, each statement many times over", async () => {
    const slug = uniq("app");
    const created = await post(a, `${base}/`, { application: { slug, data: { parameters: { v: 0 } } } });
    const variantId = created.application_variant.id as string;
    // Past five executions PostgreSQL may switch to a generic plan; through a pooler a prepared
    // statement fails as soon as its next execution lands on another server connection.
    for (let v = 1; v <= 12; v++) {
      const writer = v % 2 ? a : b;
      await post(writer, `${base}/revisions/commit`, {
        application_revision_commit: { application_variant_id: variantId, data: { parameters: { v } } },
      });
      await post(writer, `${base}/revisions/deploy`, {
        application_ref: { slug },
        environment_ref: { slug: "staging" },
      });
      // The other instance may hold the previous deploy in memory up to the bound.
      t.advanceClock(ttlMs);
      const served = await staging(writer === a ? b : a, slug);
      expect(served.application_revision.data.parameters.v).toBe(v);
    }
  });

  it("serves a deploy made on one instance from the other within CACHE_TTL_WITHOUT_LISTEN_MS", async () => {
    const slug = uniq("app");
    await post(a, `${base}/`, { application: { slug, data: { parameters: { v: 1 } } } });
    await post(a, `${base}/revisions/deploy`, { application_ref: { slug }, environment_ref: { slug: "staging" } });
    expect((await staging(b, slug)).application_revision.data.parameters.v).toBe(1);
    const hits = (await health(b)).revision_cache.hits;
    expect((await staging(b, slug)).application_revision.data.parameters.v).toBe(1);
    expect((await health(b)).revision_cache.hits).toBe(hits + 1);

    const variantId = (await staging(a, slug)).application_revision.application_variant_id as string;
    await post(a, `${base}/revisions/commit`, {
      application_revision_commit: { application_variant_id: variantId, data: { parameters: { v: 2 } } },
    });
    await post(a, `${base}/revisions/deploy`, { application_ref: { slug }, environment_ref: { slug: "staging" } });
    // Within the bound b may still answer from memory; once it has passed, never.
    expect([1, 2]).toContain((await staging(b, slug)).application_revision.data.parameters.v);
    t.advanceClock(ttlMs);
    expect((await staging(b, slug)).application_revision.data.parameters.v).toBe(2);
    expect((await staging(a, slug)).application_revision.data.parameters.v).toBe(2);
  });

  it("sends a deploy made on one instance to a watch on the other, resolving again every CACHE_TTL_WITHOUT_LISTEN_MS", async () => {
    const slug = uniq("app");
    await post(a, `${base}/`, { application: { slug, data: { parameters: { v: 1 } } } });
    await post(a, `${base}/revisions/deploy`, { application_ref: { slug }, environment_ref: { slug: "staging" } });
    const controller = new AbortController();
    try {
      const res = await b.open(`${base}/revisions/watch?environment_ref.slug=staging&key=${slug}.revision`, {
        key,
        signal: controller.signal,
      });
      expect(res.status).toBe(200);
      const events = sseReader(res);
      const next = async () => {
        for (;;) {
          const event = await events.next(10_000);
          if (event.event === "revision") return JSON.parse(event.data!);
        }
      };
      expect((await next()).application_revision.data.parameters.v).toBe(1);
      const variantId = (await staging(a, slug)).application_revision.application_variant_id as string;
      await post(a, `${base}/revisions/commit`, {
        application_revision_commit: { application_variant_id: variantId, data: { parameters: { v: 2 } } },
      });
      await post(a, `${base}/revisions/deploy`, { application_ref: { slug }, environment_ref: { slug: "staging" } });
      // No notification can arrive: the watch's poll (every ttl_ms, on real time) finds it.
      expect((await next()).application_revision.data.parameters.v).toBe(2);
    } finally {
      controller.abort();
    }
  });

  it("refuses a key revoked on one instance on the other within the bound", async () => {
    const created = await a.call("POST", "/api/keys", { key, body: {} });
    expect(created.status, created.text).toBe(201);
    const other = created.body.api_key;
    expect((await b.call("GET", "/api/keys", { key: other.key })).status).toBe(200);
    await post(a, `/api/keys/${other.id}/revoke`, {});
    t.advanceClock(ttlMs);
    const refused = await b.call("GET", "/api/keys", { key: other.key });
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe("revoked_api_key");
  });

  it("answers every statement when more are in flight than the pool has connections", async () => {
    // Through PgBouncer before 1.21, a statement pipelined behind another on one connection lost
    // its answer once the first released the server, and its caller waited forever.
    const urls = testDatabaseUrls()!;
    const handle = await openDatabase({ url: urls.url, pooler: "transaction", maxConnections: 2 });
    try {
      // A statement without parameters is sent whole; one with parameters is described first
      // (no prepared statements here): the mix is what got pipelined.
      const statements = Array.from({ length: 200 }, (_, i) =>
        i % 10 === 0
          ? handle.db.transaction(async (tx) => (await rawQuery<{ n: number }>(tx, "select $1::int as n", [i]))[0].n)
          : (i % 2
              ? rawQuery<{ n: number }>(handle.db, "select $1::int as n", [i])
              : rawQuery<{ n: number }>(handle.db, `select ${i}::int as n`)
            ).then((rows) => rows[0].n),
      );
      const answers = await within(20_000, "200 statements on 2 connections", Promise.all(statements));
      expect(answers).toEqual(Array.from({ length: 200 }, (_, i) => i));
    } finally {
      await handle.close();
    }
  });

  it("migrates an empty database from two processes at once, through the pooler", async () => {
    const urls = testDatabaseUrls()!;
    const name = `test_migrate_${randomBytes(6).toString("hex")}`;
    const admin = postgres(urls.directUrl ?? urls.url, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${name}`);
    const { url } = withDatabaseName(urls, name);
    const handles = await Promise.all(
      [0, 1].map(() => openDatabase({ url, pooler: "transaction", maxConnections: 2 })),
    );
    try {
      await Promise.all(handles.map((handle) => migrateDatabase(handle)));
      const journal = JSON.parse(fs.readFileSync(path.join("drizzle", "meta", "_journal.json"), "utf8"));
      const [{ count }] = await rawQuery<{ count: number }>(
        handles[0].db,
        "select count(*)::int as count from drizzle.__drizzle_migrations",
      );
      expect(count).toBe(journal.entries.length);
      // No session lock is left behind on any server connection.
      const locks = await rawQuery(handles[0].db, "select 1 from pg_locks where locktype = 'advisory'");
      expect(locks).toEqual([]);
    } finally {
      await Promise.all(handles.map((handle) => handle.close()));
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  });
});
