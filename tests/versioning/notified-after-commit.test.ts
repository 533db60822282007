import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VERSIONING_CHANNEL, changeTag } from "@/server/versioning/cache/change-tags";
import { revisionCacheFor } from "@/server/versioning/cache/revision-cache";
import { anotherInstance, type AppInstance } from "../helpers/app-instance";
import { createTestApp, type TestApp } from "../helpers/test-app";
import { uniq } from "./helpers";

const pg = process.env.DATABASE_URL;

/**
 * A commit's cache invalidation on PostgreSQL is a NOTIFY sent in the same write as its COMMIT, a
 * transaction of its own (server/versioning/cache/README.md, "Notified after the commit"): it
 * arrives once the commit is visible, names the variant as stored, and releases the writer's own
 * hold; a commit that fails sends none.
 */
describe.skipIf(!pg)("commits notified after their transaction (PostgreSQL)", () => {
  let t: TestApp;
  let writer: AppInstance;
  let key: string;
  let projectId: string;
  let listener: postgres.Sql;
  let reader: postgres.Sql;
  /** Each notification with the variant's head version read the moment it arrived. */
  const heard: { payload: string; headVersion: Promise<number | undefined> }[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    ({ key, projectId } = await t.newProject());
    writer = await anotherInstance(t);
    listener = postgres(t.database.url!, { max: 1 });
    reader = postgres(t.database.url!, { max: 1 });
    await listener.listen(VERSIONING_CHANNEL, (payload) => {
      const head = payload.split(" ").find((tag) => tag.startsWith("h:"));
      heard.push({
        payload,
        headVersion: head
          ? reader`select head_version from variants where id = ${head.slice(2)}`.then((rows) => rows[0]?.head_version)
          : Promise.resolve(undefined),
      });
    });
  });
  afterAll(async () => {
    await listener?.end();
    await reader?.end();
    await writer?.close();
    await t?.close();
  });

  /** An application's variant, with `heard` emptied once the create's own changes are in. */
  async function newVariant(): Promise<string> {
    const created = await writer.call("POST", "/api/applications/", {
      key,
      body: { application: { slug: uniq("app"), data: { parameters: { v: 1 } } } },
    });
    // The create's own changes arrive before a marker sent after it (commit order).
    const marker = uniq("marker");
    await listener.notify(VERSIONING_CHANNEL, marker);
    await expect.poll(() => heard.some((h) => h.payload === marker)).toBe(true);
    heard.length = 0;
    return created.body.application_variant.id as string;
  }

  const commit = (variantId: string) =>
    writer.call("POST", "/api/applications/revisions/commit", {
      key,
      body: { application_revision_commit: { application_variant_id: variantId, data: { parameters: { v: 2 } } } },
    });

  it("a commit through the API sends one change, after the commit is visible, that releases the writer's hold", async () => {
    const variantId = await newVariant();
    const res = await commit(variantId);
    expect(res.status, res.text).toBe(200);
    await expect.poll(() => heard.length).toBe(1);
    const [hold, ...tags] = heard[0]!.payload.split(" ");
    expect(hold).toMatch(/^#/);
    expect(tags).toEqual([changeTag.embeds(projectId), changeTag.head(variantId)]);
    // Read on another connection as the notification arrived: the commit was already visible.
    expect(await heard[0]!.headVersion).toBe(Number(res.body.application_revision.version));
    await expect.poll(() => revisionCacheFor(writer.context).stats().held).toBe(0);
  });

  it("names the variant's id as stored when the request spells it in upper case", async () => {
    const variantId = await newVariant();
    const res = await commit(variantId.toUpperCase());
    expect(res.status, res.text).toBe(200);
    await expect.poll(() => heard.length).toBe(1);
    expect(heard[0]!.payload.split(" ")).toContain(changeTag.head(variantId));
  });

  it("sends nothing for a commit that fails", async () => {
    const variantId = await newVariant();
    const archived = await writer.call("POST", `/api/applications/variants/${variantId}/archive`, { key });
    expect(archived.status, archived.text).toBe(200);
    const marker = uniq("marker");
    await listener.notify(VERSIONING_CHANNEL, marker);
    await expect.poll(() => heard.some((h) => h.payload === marker)).toBe(true);
    heard.length = 0;
    const res = await commit(variantId);
    expect(res.status, res.text).toBe(409);
    const after = uniq("after");
    await listener.notify(VERSIONING_CHANNEL, after);
    await expect.poll(() => heard.some((h) => h.payload === after)).toBe(true);
    expect(heard.map((h) => h.payload)).toEqual([after]);
  });
});
