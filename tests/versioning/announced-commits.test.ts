import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RevisionCache, type Retrieval } from "@/server/versioning/cache/revision-cache";
import { VERSIONING_CHANNEL, changeTag, withAnnouncedChanges } from "@/server/versioning/cache/change-tags";
import { changeAnnouncerOf } from "@/server/worker";
import { anotherInstance, type AppInstance } from "../helpers/app-instance";
import { createTestApp, type TestApp } from "../helpers/test-app";
import { uniq, whenCacheHears } from "./helpers";

const pg = process.env.DATABASE_URL;

/**
 * A commit's cache invalidation travels outside its transaction on PostgreSQL (server/versioning/
 * cache/README.md, "Announced around the commit"): every process holds the commit's tags from
 * before the commit until the change is announced as visible, or until the hold runs out when
 * that announcement never comes (the writer died in between).
 */
describe.skipIf(!pg)("commits announced around their transaction (PostgreSQL)", () => {
  const HOLD_MS = 400;
  let t: TestApp;
  let writer: AppInstance;
  let cache: RevisionCache;
  let key: string;
  let projectId: string;
  let listener: postgres.Sql;
  const heard: string[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    ({ key, projectId } = await t.newProject());
    writer = await anotherInstance(t);
    cache = new RevisionCache(t.context.db, {
      maxEntries: 100,
      maxBytes: 1_000_000,
      ttlWithoutListenMs: 1_000,
      holdMs: HOLD_MS,
      now: () => Date.now(),
    });
    await whenCacheHears(cache, () => cache.stats().listening, "its listen");
    listener = postgres(t.database.url!, { max: 1 });
    await listener.listen(VERSIONING_CHANNEL, (payload) => heard.push(payload));
  });
  afterAll(async () => {
    await listener?.end();
    await cache?.stop();
    await writer?.close();
    await t?.close();
  });

  const answer = { revision: { id: "r" } } as unknown as Retrieval;
  /** Stores an answer tagged `tag` with a ticket taken now; whether it was kept. */
  const stores = (k: string, tag: string) => {
    cache.set(k, answer, [tag], cache.ticket());
    return cache.get(k) !== undefined;
  };

  /** An application's variant, with `heard` emptied once the create's own changes are in. */
  async function newVariant(): Promise<string> {
    const created = await writer.call("POST", "/api/applications/", {
      key,
      body: { application: { slug: uniq("app"), data: { parameters: { v: 1 } } } },
    });
    // The create's own changes arrive before a marker sent after it (commit order).
    const marker = uniq("marker");
    await listener.notify(VERSIONING_CHANNEL, marker);
    await expect.poll(() => heard.includes(marker)).toBe(true);
    heard.length = 0;
    return created.body.application_variant.id as string;
  }

  it("a commit through the API sends a hold before its transaction commits and the change after, with one id", async () => {
    const variantId = await newVariant();
    const res = await writer.call("POST", "/api/applications/revisions/commit", {
      key,
      body: { application_revision_commit: { application_variant_id: variantId, data: { parameters: { v: 2 } } } },
    });
    expect(res.status, res.text).toBe(200);
    await expect.poll(() => heard.length).toBe(2);
    const [hold, change] = heard.map((p) => p.split(" "));
    expect(hold[0]).toMatch(/^\+/);
    expect(change[0]).toBe(`#${hold[0].slice(1)}`);
    expect(hold.slice(1)).toEqual([changeTag.embeds(projectId), changeTag.head(variantId)]);
    expect(change.slice(1)).toEqual(hold.slice(1));
    await expect.poll(() => cache.stats().held).toBe(0);
  });

  it("holds the variant's id as stored when the request spells it in upper case", async () => {
    const variantId = await newVariant();
    const res = await writer.call("POST", "/api/applications/revisions/commit", {
      key,
      body: {
        application_revision_commit: {
          application_variant_id: variantId.toUpperCase(),
          data: { parameters: { v: 2 } },
        },
      },
    });
    expect(res.status, res.text).toBe(200);
    const head = changeTag.head(variantId);
    await expect.poll(() => heard.filter((p) => p.startsWith("#") && p.split(" ").includes(head)).length).toBe(1);
    const hold = heard.find((p) => p.startsWith("+") && p.split(" ").includes(head));
    expect(hold).toBeDefined();
    expect(heard.indexOf(hold!)).toBeLessThan(heard.findIndex((p) => p.startsWith("#") && p.split(" ").includes(head)));
  });

  it("holds a tag from the announcement: its answers are dropped and none is stored until the change is visible", async () => {
    const tag = changeTag.head(uniq("variant"));
    expect(stores("before", tag)).toBe(true);
    let duringHold = 0;
    await withAnnouncedChanges(writer.context.db, async (announce) => {
      await announce!(projectId, [tag]);
      await expect.poll(() => cache.stats().held).toBe(1);
      expect(cache.get("before")).toBeUndefined();
      duringHold = cache.ticket();
      expect(stores("during", tag)).toBe(false);
    });
    await expect.poll(() => cache.stats().held).toBe(0);
    // A read that began during the hold may have seen the old row: not stored.
    cache.set("late", answer, [tag], duringHold);
    expect(cache.get("late")).toBeUndefined();
    expect(stores("after", tag)).toBe(true);
  });

  it("announces the change even when the transaction fails after the hold, so no process keeps holding", async () => {
    const tag = changeTag.head(uniq("variant"));
    await expect(
      withAnnouncedChanges(writer.context.db, async (announce) => {
        await announce!(projectId, [tag]);
        throw new Error("the commit failed");
      }),
    ).rejects.toThrow("the commit failed");
    await expect.poll(() => cache.stats().held).toBe(0);
    expect(stores("after-failure", tag)).toBe(true);
  });

  it("lets a hold whose change is never announced (the writer died after committing) run out as a change", async () => {
    const tag = changeTag.head(uniq("variant"));
    expect(stores("old-head", tag)).toBe(true);
    // What a writer sends before its commit; it dies before announcing the change.
    await changeAnnouncerOf(writer.context.db)!.announce(VERSIONING_CHANNEL, `+${uniq("dead")} ${tag}`);
    await expect.poll(() => cache.stats().held).toBe(1);
    expect(cache.get("old-head")).toBeUndefined();
    const duringHold = cache.ticket();
    expect(stores("during", tag)).toBe(false);
    const ranOut = whenCacheHears(cache, (tags) => !!tags?.includes(tag), "the hold running out");
    const started = performance.now();
    await ranOut;
    expect(performance.now() - started).toBeLessThan(HOLD_MS + 1_000);
    expect(cache.stats().held).toBe(0);
    cache.set("late", answer, [tag], duringHold);
    expect(cache.get("late")).toBeUndefined();
    expect(stores("new-head", tag)).toBe(true);
  });
});
