import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHANGE_LISTENER_APPLICATION } from "@/server/worker";
import { revisionCacheFor } from "@/server/versioning/cache/revision-cache";
import { anotherInstance, type AppInstance } from "../helpers/app-instance";
import { createTestApp, type TestApp } from "../helpers/test-app";
import { rawQuery } from "@/server/db";
import { drainEvents } from "@/server/events";
import { VERSIONING_CHANNEL } from "@/server/versioning/cache/change-tags";
import { uniq, whenCacheHears } from "./helpers";

/**
 * Two app instances on one database (separate pools and listeners on PostgreSQL): `reader`
 * caches, `writer` changes things, `truth` has no cache. After every kind of change the reader
 * must answer what the database answers, within the notification delay.
 */
describe("revision cache", () => {
  let t: TestApp;
  let reader: AppInstance;
  let writer: AppInstance;
  let truth: AppInstance;
  let key: string;
  const base = "/api/applications";

  beforeAll(async () => {
    t = await createTestApp();
    ({ key } = await t.newProject());
    reader = await anotherInstance(t);
    writer = await anotherInstance(t);
    truth = await anotherInstance(t, { revisionCache: { ...t.context.config.revisionCache, maxEntries: 0 } });
    // Listening starts with the first use of a cache.
    for (const i of [reader, writer]) revisionCacheFor(i.context);
    for (const i of [reader, writer]) {
      const cache = revisionCacheFor(i.context);
      await whenCacheHears(cache, () => cache.stats().listening, "its listen");
    }
  });
  afterAll(async () => {
    await Promise.all([reader, writer, truth].map((i) => i?.close()));
    await t?.close();
  });

  const post = async (instance: AppInstance, path: string, body: unknown) => {
    const res = await instance.call("POST", path, { key, body });
    expect(res.status, res.text).toBe(200);
    return res.body as Record<string, any>;
  };
  const retrieve = (instance: AppInstance, body: unknown) =>
    instance.call("POST", `${base}/revisions/retrieve`, { key, body });
  const stats = () => revisionCacheFor(reader.context).stats();

  /** An application with two revisions deployed to staging under its default key. */
  async function application() {
    const slug = uniq("app");
    const created = await post(writer, `${base}/`, { application: { slug, data: { parameters: { v: 1 } } } });
    const variantId = created.application_variant.id as string;
    const v2 = (
      await post(writer, `${base}/revisions/commit`, {
        application_revision_commit: { application_variant_id: variantId, data: { parameters: { v: 2 } } },
      })
    ).application_revision;
    await post(writer, `${base}/revisions/deploy`, { application_ref: { slug }, environment_ref: { slug: "staging" } });
    return { slug, artifactId: created.application.id as string, variantId, v1: created.application_revision, v2 };
  }

  /**
   * Resolves once `instance`'s cache has heard every change committed before the call: a marker
   * notified on the change channel now arrives after them (PostgreSQL delivers notifications in
   * commit order, PGlite in-process in order too), and the instance's own holds are released (a
   * rolled-back change's runs out). No change still on its way then.
   */
  async function heardAll(instance: AppInstance): Promise<void> {
    const cache = revisionCacheFor(instance.context);
    const marker = uniq("heard-all");
    const heard = whenCacheHears(cache, (tags) => !!tags?.includes(marker), marker);
    await rawQuery(t.context.db, `select pg_notify('${VERSIONING_CHANNEL}', $1)`, [marker]);
    await heard;
    await whenCacheHears(cache, () => cache.stats().held === 0, "every held change");
  }

  /**
   * Retrieves twice once no change is on its way: the second answer comes from memory, byte for
   * byte the database path's.
   */
  async function cached(body: unknown): Promise<string> {
    await heardAll(reader);
    const first = await retrieve(reader, body);
    expect(first.status, first.text).toBe(200);
    const hits = stats().hits;
    const again = await retrieve(reader, body);
    expect(again.text).toBe(first.text);
    expect(stats().hits).toBe(hits + 1);
    return again.text;
  }

  /** Once the reader has heard every change made so far, it answers what the uncached instance does. */
  async function coherent(body: unknown): Promise<void> {
    await heardAll(reader);
    const [mine, actual] = await Promise.all([retrieve(reader, body), retrieve(truth, body)]);
    expect(mine.status).toBe(actual.status);
    expect(mine.text).toBe(actual.text);
  }

  it("answers every reference kind from memory, byte for byte what the database path answers", async () => {
    const app = await application();
    const kinds = [
      { application_revision_ref: { id: app.v2.id } },
      { application_revision_ref: { slug: app.v2.slug } },
      { application_variant_ref: { id: app.variantId }, application_revision_ref: { version: "1" } },
      { application_variant_ref: { id: app.variantId } },
      { application_ref: { slug: app.slug } },
      { environment_ref: { slug: "staging" }, key: `${app.slug}.revision` },
      { application_ref: { slug: app.slug }, resolve: true },
    ];
    for (const body of kinds) {
      const text = await cached(body);
      expect(text).toBe((await retrieve(truth, body)).text);
    }
  });

  it("a commit moves variant latest and artifact latest", async () => {
    const app = await application();
    const bodies = [{ application_variant_ref: { id: app.variantId } }, { application_ref: { slug: app.slug } }];
    const pinned = { application_revision_ref: { id: app.v2.id } };
    for (const body of [...bodies, pinned]) await cached(body);
    const invalidations = stats().invalidations;
    await post(writer, `${base}/revisions/commit`, {
      application_revision_commit: { application_variant_id: app.variantId, data: { parameters: { v: 3 } } },
    });
    for (const body of bodies) {
      await coherent(body);
      expect((await retrieve(reader, body)).body.application_revision.version).toBe("3");
    }
    // Exactly what it affects: the answer by revision id stays in memory.
    expect(stats().invalidations).toBe(invalidations + 2);
    const hits = stats().hits;
    await retrieve(reader, pinned);
    expect(stats().hits).toBe(hits + 1);
  });

  it("a deploy through another instance reaches this one's next retrieve by environment + key", async () => {
    const app = await application();
    const body = { environment_ref: { slug: "staging" }, key: `${app.slug}.revision` };
    await cached(body);
    await post(writer, `${base}/revisions/deploy`, {
      application_revision_ref: { id: app.v1.id },
      environment_ref: { slug: "staging" },
    });
    await coherent(body);
    expect((await retrieve(reader, body)).body.application_revision.id).toBe(app.v1.id);
  });

  it("a fork that makes a variant slug ambiguous is seen by a retrieve by that slug alone", async () => {
    const a = await application();
    const b = await application();
    const slug = uniq("feature");
    await post(writer, `${base}/variants/fork`, {
      application_revision_ref: { id: a.v2.id },
      application_variant: { slug },
    });
    const body = { application_variant_ref: { slug } };
    await cached(body);
    await post(writer, `${base}/variants/fork`, {
      application_revision_ref: { id: b.v2.id },
      application_variant: { slug },
    });
    await coherent(body);
    expect((await retrieve(reader, body)).status).toBe(400);
  });

  it("a revision edit, archive and unarchive", async () => {
    const app = await application();
    const body = { application_revision_ref: { id: app.v2.id } };
    await cached(body);
    expect(
      (
        await writer.call("PUT", `${base}/revisions/${app.v2.id}`, {
          key,
          body: { application_revision: { name: "renamed" } },
        })
      ).status,
    ).toBe(200);
    await coherent(body);
    expect((await retrieve(reader, body)).body.application_revision.name).toBe("renamed");
    await post(writer, `${base}/revisions/${app.v2.id}/archive`, undefined);
    await coherent(body);
    expect((await retrieve(reader, body)).body.application_revision.deleted_at).toBeDefined();
    await post(writer, `${base}/revisions/${app.v2.id}/unarchive`, undefined);
    await coherent(body);
    expect((await retrieve(reader, body)).body.application_revision.deleted_at).toBeUndefined();
  });

  for (const [entity, path] of [
    ["variant", "variants"],
    ["artifact", ""],
  ] as const) {
    it(`a ${entity} edit, archive and unarchive drop the answers under it`, async () => {
      const app = await application();
      const id = entity === "variant" ? app.variantId : app.artifactId;
      const prefix = path ? `${base}/${path}` : base;
      const body = { application_revision_ref: { id: app.v2.id } };
      const wrapper = entity === "variant" ? "application_variant" : "application";
      for (const change of [
        () => writer.call("PUT", `${prefix}/${id}`, { key, body: { [wrapper]: { name: uniq("n") } } }),
        () => writer.call("POST", `${prefix}/${id}/archive`, { key }),
        () => writer.call("POST", `${prefix}/${id}/unarchive`, { key }),
      ]) {
        await cached(body);
        const invalidations = stats().invalidations;
        const heard = whenCacheHears(
          revisionCacheFor(reader.context),
          () => stats().invalidations > invalidations,
          "the change",
        );
        const res = await change();
        expect(res.status, res.text).toBe(200);
        await heard;
        await coherent(body);
      }
    });
  }

  it("no stale read in a concurrent commit-and-retrieve loop", async () => {
    const app = await application();
    const body = { application_variant_ref: { id: app.variantId } };
    let done = false;
    const delays: number[] = [];
    const readerLoop = (async () => {
      let seen = 0;
      while (!done) {
        const res = await retrieve(reader, body);
        expect(res.status, res.text).toBe(200);
        const version = Number(res.body.application_revision.version);
        // Never backwards; never behind for longer than the delay measured below.
        expect(version).toBeGreaterThanOrEqual(seen);
        seen = version;
        // An answer from memory completes without I/O: yield, as requests arriving on sockets do.
        await new Promise((r) => setImmediate(r));
      }
    })();
    const readerCache = revisionCacheFor(reader.context);
    for (let v = 3; v <= 22; v++) {
      // A commit publishes one change: the next one the reader hears is this commit's.
      const heard = whenCacheHears(readerCache, (tags) => Array.isArray(tags), `commit ${v}`);
      await post(writer, `${base}/revisions/commit`, {
        application_revision_commit: { application_variant_id: app.variantId, data: { parameters: { v } } },
      });
      const started = performance.now();
      await heard;
      delays.push(performance.now() - started);
      expect(Number((await retrieve(reader, body)).body.application_revision.version)).toBe(v);
    }
    done = true;
    await readerLoop;
    // The notification delay, with slack for a loaded CI machine (bench/versioning measures it).
    expect(Math.max(...delays)).toBeLessThan(1_000);
  });

  it("the writer's own instance answers its write at once, even while others keep reading the old answer", async () => {
    const app = await application();
    const body = { environment_ref: { slug: "staging" }, key: `${app.slug}.revision` };
    const writerStats = () => revisionCacheFor(writer.context).stats();
    // Cached on the writer, and read on and on while the deploys below run, so an answer read
    // before a deploy's commit would be stored before its notification came back.
    let done = false;
    const readerLoop = (async () => {
      while (!done) {
        expect((await retrieve(writer, body)).status).toBe(200);
        await new Promise((r) => setImmediate(r));
      }
    })();
    for (let round = 0; round < 10; round++) {
      const target = round % 2 === 0 ? app.v1 : app.v2;
      await post(writer, `${base}/revisions/deploy`, {
        application_revision_ref: { id: target.id },
        environment_ref: { slug: "staging" },
      });
      // No waiting: the very next retrieve on the deploying instance shows the deploy.
      expect((await retrieve(writer, body)).body.application_revision.id).toBe(target.id);
    }
    done = true;
    await readerLoop;
    // Once the notifications are back it caches again.
    await heardAll(writer);
    const hits = writerStats().hits;
    await retrieve(writer, body);
    await retrieve(writer, body);
    expect(writerStats().hits).toBeGreaterThan(hits);
  });

  it("read events are still written for answers from memory", async () => {
    const app = await application();
    const body = { application_revision_ref: { id: app.v1.id } };
    await cached(body);
    await retrieve(reader, body);
    // Three retrieves, two of them from memory: three events, in the reader's batcher until drained.
    const retrievedEvents = async () => {
      const res = await t.call("POST", "/api/events/query", {
        key,
        body: { event_type: "applications.revisions.retrieved", windowing: { limit: 1000 } },
      });
      return (res.body.events as { attributes: { references: { application_revision: { id: string } } } }[]).filter(
        (e) => e.attributes.references.application_revision.id === app.v1.id,
      ).length;
    };
    await drainEvents(reader.context.db);
    expect(await retrievedEvents()).toBe(3);
  });

  it("a revoked key is refused even for an answer in memory", async () => {
    const app = await application();
    const res = await writer.call("POST", "/api/keys", { key, body: { name: "short-lived" } });
    expect(res.status).toBe(201);
    const created = res.body as { api_key: { id: string; key: string } };
    const other = created.api_key.key;
    const body = { application_revision_ref: { id: app.v1.id } };
    expect((await reader.call("POST", `${base}/revisions/retrieve`, { key: other, body })).status).toBe(200);
    expect((await reader.call("POST", `/api/keys/${created.api_key.id}/revoke`, { key, body: {} })).status).toBe(200);
    expect((await reader.call("POST", `${base}/revisions/retrieve`, { key: other, body })).status).toBe(401);
  });

  it("stays within its entry and byte bounds, least recently used out first", async () => {
    const small = await anotherInstance(t, {
      revisionCache: { maxEntries: 3, maxBytes: 1_000_000, watchKeepaliveMs: 15_000 },
    });
    try {
      const cache = revisionCacheFor(small.context);
      await whenCacheHears(cache, () => cache.stats().listening, "its listen");
      const app = await application();
      const bodies: Record<string, unknown>[] = [app.v1.id, app.v2.id].flatMap((id) => [
        { application_revision_ref: { id } },
        { application_revision_ref: { id }, resolve: true },
      ]);
      bodies.push({ application_ref: { slug: app.slug } });
      for (const body of bodies)
        expect((await small.call("POST", `${base}/revisions/retrieve`, { key, body })).status).toBe(200);
      expect(cache.stats()).toMatchObject({ entries: 3, evictions: 2 });
      const tiny = await anotherInstance(t, {
        revisionCache: { maxEntries: 100, maxBytes: 1_500, watchKeepaliveMs: 15_000 },
      });
      try {
        const tinyCache = revisionCacheFor(tiny.context);
        await whenCacheHears(tinyCache, () => tinyCache.stats().listening, "its listen");
        for (const body of bodies) await tiny.call("POST", `${base}/revisions/retrieve`, { key, body });
        expect(tinyCache.stats().bytes).toBeLessThanOrEqual(1_500);
        expect(tinyCache.stats().entries).toBeLessThan(bodies.length);
      } finally {
        await tiny.close();
      }
    } finally {
      await small.close();
    }
  });

  it("reports its figures in /api/health", async () => {
    const res = await reader.call("GET", "/api/health");
    expect(res.body.revision_cache).toMatchObject({ listening: true, max_entries: 10_000 });
    expect(res.body.revision_cache.hits).toBeGreaterThan(0);
  });

  it.runIf(Boolean(process.env.DATABASE_URL))(
    "drops everything when its listening connection is lost, and serves again once it listens",
    async () => {
      const app = await application();
      const body = { application_revision_ref: { id: app.v1.id } };
      await cached(body);
      const cache = revisionCacheFor(reader.context);
      const admin = await anotherInstance(t, {
        revisionCache: { maxEntries: 0, maxBytes: 0, watchKeepaliveMs: 15_000 },
      });
      try {
        const lost = whenCacheHears(cache, () => !cache.stats().listening, "its listen lost");
        await rawQuery(
          admin.context.db,
          "select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and application_name = $1",
          [CHANGE_LISTENER_APPLICATION],
        );
        await lost;
        expect(cache.stats().entries).toBe(0);
        await whenCacheHears(cache, () => cache.stats().listening, "its listen again");
        await cached(body);
      } finally {
        await admin.close();
      }
    },
  );
});
