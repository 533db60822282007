import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "@/server/core/ids";
import { artifacts, revisions, variants } from "@/server/db/schema";
import {
  DOMAIN_NAMES,
  commit,
  createArtifact,
  dataFor,
  domainKeys,
  expectStatus,
  lastEvent,
  setup,
  uniq,
  type Ctx,
} from "./helpers";

let c: Ctx;
beforeAll(async () => {
  c = await setup();
});
afterAll(() => c.t.close());

describe.each(DOMAIN_NAMES)("revision query of %s", (domain) => {
  const keys = domainKeys(domain);
  const query = async (body: Record<string, unknown>) => {
    const res = await c.t.call("POST", `/api/${domain}/revisions/query`, { key: c.key, body });
    expectStatus(res, 200);
    expect(res.body.count).toBe(res.body[keys.revisions].length);
    return res.body[keys.revisions] as { id: string; data: Record<string, unknown> }[];
  };
  const ids = (rows: { id: string }[]) => rows.map((r) => r.id).sort();

  it("filters by artifact, variant and revision refs, ids, slugs, message and author, with payloads", async () => {
    const a = await createArtifact(c, domain, { data: dataFor(domain, 1) });
    const a2 = await commit(c, domain, a.variant.id, dataFor(domain, 2), {
      message: `Fix the ${uniq("typo")}`,
      slug: uniq("r"),
    });
    const b = await createArtifact(c, domain, { data: dataFor(domain, 3) });
    const byArtifact = { [keys.refs]: [{ id: a.artifact.id }] };

    const rows = await query(byArtifact);
    expect(ids(rows)).toEqual(ids([a.revision!, a2]));
    expect(rows.find((r) => r.id === a2.id)).toEqual(a2);
    expect(ids(await query({ [keys.refs]: [{ slug: a.artifact.slug }, { slug: b.artifact.slug }] }))).toEqual(
      ids([a.revision!, a2, b.revision!]),
    );
    expect(ids(await query({ [keys.variantRefs]: [{ id: b.variant.id }] }))).toEqual([b.revision!.id]);
    expect(ids(await query({ [keys.revisionRefs]: [{ slug: a2.slug }, { id: b.revision!.id }] }))).toEqual(
      ids([a2, b.revision!]),
    );
    expect(ids(await query({ [keys.revision]: { ids: [a2.id, b.revision!.id] } }))).toEqual(ids([a2, b.revision!]));
    expect(ids(await query({ [keys.revision]: { slug: a2.slug } }))).toEqual([a2.id]);
    expect(ids(await query({ [keys.revision]: { slugs: [a2.slug, b.revision!.slug] } }))).toEqual(
      ids([a2, b.revision!]),
    );
    expect(ids(await query({ ...byArtifact, [keys.revision]: { message: "FIX THE" } }))).toEqual([a2.id]);
    expect(ids(await query({ ...byArtifact, [keys.revision]: { author_ids: [c.userId] } }))).toEqual(
      ids([a.revision!, a2]),
    );
    expect(await query({ ...byArtifact, [keys.revision]: { author_ids: [b.artifact.id] } })).toEqual([]);
  });
});

describe("windowing", () => {
  it("pages artifacts, variants and revisions with limit and next, newest first or ascending", async () => {
    const run = uniq("page");
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push((await createArtifact(c, "queries", { tags: { run } })).artifact.id);
    const artifactPages = async (windowing: Record<string, unknown>) => {
      const seen: string[][] = [];
      let next: string | undefined;
      do {
        const res = await c.t.call("POST", "/api/queries/query", {
          key: c.key,
          body: { query: { tags: { run } }, windowing: { ...windowing, ...(next ? { next } : {}) } },
        });
        expectStatus(res, 200);
        seen.push(res.body.queries.map((a: { id: string }) => a.id));
        next = res.body.windowing?.next;
        if (next) expect(next).toBe(seen.at(-1)!.at(-1));
        expect(Object.keys(res.body).sort()).toEqual(next ? ["count", "queries", "windowing"] : ["count", "queries"]);
      } while (next && seen.length < 10);
      return seen;
    };
    expect(await artifactPages({ limit: 2 })).toEqual([[made[4], made[3]], [made[2], made[1]], [made[0]]]);
    expect(await artifactPages({ limit: 2, order: "ascending" })).toEqual([
      [made[0], made[1]],
      [made[2], made[3]],
      [made[4]],
    ]);
    expect(await artifactPages({ limit: 3, order: "descending" })).toEqual([
      [made[4], made[3], made[2]],
      [made[1], made[0]],
    ]);
    expect(await artifactPages({})).toEqual([[...made].reverse()]);

    const { artifact, variant } = await createArtifact(c, "queries", { data: dataFor("queries", 0) });
    for (let i = 1; i <= 4; i++) await commit(c, "queries", variant.id, dataFor("queries", i));
    const p1 = await c.t.call("POST", "/api/queries/revisions/query", {
      key: c.key,
      body: { query_refs: [{ id: artifact.id }], windowing: { limit: 3, order: "ascending" } },
    });
    expect(p1.body.query_revisions.map((r: { version: string }) => r.version)).toEqual(["1", "2", "3"]);
    const p2 = await c.t.call("POST", "/api/queries/revisions/query", {
      key: c.key,
      body: {
        query_refs: [{ id: artifact.id }],
        windowing: { limit: 3, order: "ascending", next: p1.body.windowing.next },
      },
    });
    expect(p2.body.query_revisions.map((r: { version: string }) => r.version)).toEqual(["4", "5"]);
    expect(p2.body.windowing).toBeUndefined();

    for (const slug of ["b1", "b2", "b3"])
      await c.t.call("POST", "/api/queries/variants/", {
        key: c.key,
        body: { query_variant: { query_id: artifact.id, slug } },
      });
    const v1 = await c.t.call("POST", "/api/queries/variants/query", {
      key: c.key,
      body: { query_refs: [{ id: artifact.id }], windowing: { limit: 2 } },
    });
    expect(v1.body.query_variants.map((v: { slug: string }) => v.slug)).toEqual(["b3", "b2"]);
    const v2 = await c.t.call("POST", "/api/queries/variants/query", {
      key: c.key,
      body: { query_refs: [{ id: artifact.id }], windowing: { limit: 2, next: v1.body.windowing.next } },
    });
    expect(v2.body.query_variants.map((v: { slug: string }) => v.slug)).toEqual(["b1", "default"]);
  });

  it("filters by creation time with oldest and newest", async () => {
    const run = uniq("time");
    const made: { id: string; created_at: string }[] = [];
    for (let i = 0; i < 3; i++) {
      const { id } = (await createArtifact(c, "evaluators", { tags: { run } })).artifact;
      // Creation times come from the database's clock, which no test moves: each is set a second
      // apart, so oldest/newest tell them apart without waiting for the clock to tick.
      const createdAt = new Date(Date.UTC(2026, 0, 1, 0, 0, i));
      await c.t.context.db
        .update(artifacts)
        .set({ createdAt })
        .where(sql`${artifacts.id} = ${id}`);
      made.push({ id, created_at: createdAt.toISOString() });
    }
    const q = async (windowing: Record<string, unknown>) => {
      const res = await c.t.call("POST", "/api/evaluators/query", {
        key: c.key,
        body: { evaluator: { tags: { run } }, windowing },
      });
      expectStatus(res, 200);
      return res.body.evaluators.map((a: { id: string }) => a.id);
    };
    expect(await q({ oldest: made[1].created_at })).toEqual([made[2].id, made[1].id]);
    expect(await q({ newest: made[1].created_at })).toEqual([made[1].id, made[0].id]);
    expect(await q({ oldest: made[1].created_at, newest: made[1].created_at })).toEqual([made[1].id]);
    expect(await q({ oldest: "2000-01-01T00:00:00+02:00", order: "ascending" })).toEqual(made.map((m) => m.id));
  });

  it("rejects malformed windowing with 422", async () => {
    for (const windowing of [
      { limit: 0 },
      { limit: 1001 },
      { next: "abc" },
      { order: "sideways" },
      { newest: "yesterday" },
      { page: 2 },
    ]) {
      const res = await c.t.call("POST", "/api/applications/revisions/query", { key: c.key, body: { windowing } });
      expectStatus(res, 422);
    }
  });
});

describe("list events", () => {
  it("logged and queried events carry the page's references and count", async () => {
    const { variant, revision } = await createArtifact(c, "applications", { data: dataFor("applications", 1) });
    const v2 = await commit(c, "applications", variant.id, dataFor("applications", 2));
    await c.t.call("POST", "/api/applications/revisions/query", {
      key: c.key,
      body: { application_variant_refs: [{ id: variant.id }], windowing: { limit: 1 } },
    });
    const queried = await lastEvent(c, "applications.revisions.queried");
    expect(queried.attributes.count).toBe(1);
    expect(
      queried.attributes.references.map((r: { application_revision: { id: string } }) => r.application_revision.id),
    ).toEqual([v2.id]);

    const none = await c.t.call("POST", "/api/applications/revisions/query", {
      key: c.key,
      body: { application_revision: { slug: "matches-nothing" } },
    });
    expect(none.body).toEqual({ count: 0, application_revisions: [] });
    expect((await lastEvent(c, "applications.revisions.queried")).attributes).toEqual({
      references: [],
      count: 0,
      user_id: c.userId,
    });

    await c.t.call("POST", "/api/applications/revisions/log", {
      key: c.key,
      body: { application: { application_variant_id: variant.id } },
    });
    const logged = await lastEvent(c, "applications.revisions.logged");
    expect(logged.attributes.count).toBe(2);
    expect(
      logged.attributes.references.map((r: { application_revision: { id: string } }) => r.application_revision.id),
    ).toEqual([v2.id, revision!.id]);
  });

  it("caps the references of a logged event at 1000 and keeps the uncapped count", async () => {
    const { artifact, variant } = await createArtifact(c, "workflows", { data: dataFor("workflows", 1) });
    // 1,200 revisions written straight to the table keep this test fast; the log reads them as any others.
    const rows = Array.from({ length: 1199 }, (_, i) => ({
      id: newId(),
      projectId: c.projectId,
      domain: "workflows",
      artifactId: artifact.id,
      variantId: variant.id,
      slug: uniq("bulk"),
      version: i + 2,
      data: {},
      authorId: c.userId,
    }));
    await c.t.context.db.insert(revisions).values(rows);
    await c.t.context.db
      .update(variants)
      .set({ headVersion: 1200 })
      .where(sql`${variants.id} = ${variant.id}`);

    const log = await c.t.call("POST", "/api/workflows/revisions/log", {
      key: c.key,
      body: { workflow: { workflow_variant_id: variant.id } },
    });
    expectStatus(log, 200);
    expect(log.body.count).toBe(1200);
    expect(log.body.workflow_revisions[0].version).toBe("1200");
    const event = await lastEvent(c, "workflows.revisions.logged");
    expect(event.attributes.count).toBe(1200);
    expect(event.attributes.references).toHaveLength(1000);
    expect(event.attributes.references[0].workflow_revision.version).toBe("1200");
    expect(event.attributes.references[999].workflow_revision.version).toBe("201");
  });
});
