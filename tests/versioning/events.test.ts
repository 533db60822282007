import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EVENT_TYPES } from "@/shared/event-catalog";
import {
  DOMAIN_NAMES,
  ISO_MS,
  MISSING_ID,
  UUID,
  commit,
  countEvents,
  createArtifact,
  dataFor,
  domainKeys,
  eventsOf,
  expectStatus,
  lastEvent,
  refsOfRevision,
  retrieve,
  setup,
  type Ctx,
} from "./helpers";

let c: Ctx;
beforeAll(async () => {
  c = await setup();
});
afterAll(() => c.t.close());

describe("the event catalog", () => {
  it("has the five revision actions for every domain, workflows included, and the testcase reads", () => {
    for (const domain of DOMAIN_NAMES) {
      for (const action of ["retrieved", "fetched", "queried", "logged", "committed"])
        expect(EVENT_TYPES).toContain(`${domain}.revisions.${action}`);
    }
    expect(EVENT_TYPES).toContain("testcases.fetched");
    expect(EVENT_TYPES).toContain("testcases.queried");
  });
});

describe.each(DOMAIN_NAMES)("events of %s", (domain) => {
  const keys = domainKeys(domain);
  const base = `/api/${domain}/revisions`;
  // dataFor's environment data names one entry per marker (`marker-<n>`, deploying nothing).
  const envExtra = (marker: number) => {
    if (domain !== "environments") return {};
    const created = { [`marker-${marker}`]: { new: {} } };
    const deleted = marker > 1 ? { [`marker-${marker - 1}`]: { old: {} } } : {};
    return { state: { references: { [`marker-${marker}`]: {} } }, diff: { created, updated: {}, deleted } };
  };

  it("committed: references with ids and slugs, user_id and message; no count", async () => {
    const { variant, revision } = await createArtifact(c, domain, { data: dataFor(domain, 1), message: "first" });
    const created = await lastEvent(c, `${domain}.revisions.committed`);
    expect(created.attributes).toEqual({
      references: refsOfRevision(domain, revision!),
      user_id: c.userId,
      message: "first",
      ...envExtra(1),
    });

    const v2 = await commit(c, domain, variant.id, dataFor(domain, 2));
    const event = await lastEvent(c, `${domain}.revisions.committed`);
    expect(event).toEqual({
      event_id: expect.stringMatching(UUID),
      event_type: `${domain}.revisions.committed`,
      timestamp: expect.stringMatching(ISO_MS),
      created_at: expect.stringMatching(ISO_MS),
      attributes: { references: refsOfRevision(domain, v2), user_id: c.userId, ...envExtra(2) },
      project_id: c.projectId,
    });
    expect(event.attributes.references[keys.revision]).toEqual({ id: v2.id, slug: v2.slug, version: "2" });
    expect(event.event_id).not.toBe(created.event_id);
  });

  it("retrieved and fetched: one revision's references, count 1 and user_id; none for a failed read", async () => {
    const { artifact, revision } = await createArtifact(c, domain, { data: dataFor(domain, 1) });
    const expected = { references: refsOfRevision(domain, revision!), count: 1, user_id: c.userId };

    expectStatus(await retrieve(c, domain, { [keys.ref]: { slug: artifact.slug } }), 200);
    expect((await lastEvent(c, `${domain}.revisions.retrieved`)).attributes).toEqual(expected);
    expectStatus(await c.t.call("GET", `${base}/${revision!.id}`, { key: c.key }), 200);
    expect((await lastEvent(c, `${domain}.revisions.fetched`)).attributes).toEqual(expected);

    const retrieved = await countEvents(c, `${domain}.revisions.retrieved`);
    const fetched = await countEvents(c, `${domain}.revisions.fetched`);
    expect((await retrieve(c, domain, { [keys.revisionRef]: { id: MISSING_ID } })).body.count).toBe(0);
    expectStatus(await retrieve(c, domain, { [keys.revisionRef]: { id: revision!.id, version: "5" } }), 400);
    expect((await c.t.call("GET", `${base}/${MISSING_ID}`, { key: c.key })).body.count).toBe(0);
    expect(await countEvents(c, `${domain}.revisions.retrieved`)).toBe(retrieved);
    expect(await countEvents(c, `${domain}.revisions.fetched`)).toBe(fetched);
  });

  it("queried and logged: a references array and the count", async () => {
    const { artifact, variant, revision } = await createArtifact(c, domain, { data: dataFor(domain, 1) });
    const v2 = await commit(c, domain, variant.id, dataFor(domain, 2));
    const list = [refsOfRevision(domain, v2), refsOfRevision(domain, revision!)];

    await c.t.call("POST", `${base}/query`, { key: c.key, body: { [keys.refs]: [{ id: artifact.id }] } });
    expect((await lastEvent(c, `${domain}.revisions.queried`)).attributes).toEqual({
      references: list,
      count: 2,
      user_id: c.userId,
    });
    await c.t.call("POST", `${base}/log`, { key: c.key, body: { [keys.one]: { [keys.variantId]: variant.id } } });
    expect((await lastEvent(c, `${domain}.revisions.logged`)).attributes).toEqual({
      references: list,
      count: 2,
      user_id: c.userId,
    });
  });
});

describe("POST /api/events/query", () => {
  it("filters by one or several types, pages newest first or ascending, and stays within the project", async () => {
    const p = await c.t.newProject("events");
    const ctx = { ...c, ...p };
    const { artifact, variant } = await createArtifact(ctx, "queries", { data: dataFor("queries", 0) });
    for (let i = 1; i <= 3; i++) await commit(ctx, "queries", variant.id, dataFor("queries", i));
    await retrieve(ctx, "queries", { query_ref: { id: artifact.id } });

    const all = await c.t.call("POST", "/api/events/query", { key: p.key, body: {} });
    expectStatus(all, 200);
    expect(all.body.events.map((e: { event_type: string }) => e.event_type)).toEqual([
      "queries.revisions.retrieved",
      ...Array(4).fill("queries.revisions.committed"),
    ]);
    for (const e of all.body.events) expect(e.project_id).toBe(p.projectId);

    const both = await c.t.call("POST", "/api/events/query", {
      key: p.key,
      body: { event_types: ["queries.revisions.retrieved", "queries.revisions.committed"] },
    });
    expect(both.body.count).toBe(5);
    const committed = await eventsOf(ctx, "queries.revisions.committed");
    expect(committed.map((e) => e.attributes.references.query_revision.version)).toEqual(["4", "3", "2", "1"]);

    const page1 = await c.t.call("POST", "/api/events/query", {
      key: p.key,
      body: { event_type: "queries.revisions.committed", windowing: { limit: 3, order: "ascending" } },
    });
    expect(
      page1.body.events.map(
        (e: { attributes: { references: { query_revision: { version: string } } } }) =>
          e.attributes.references.query_revision.version,
      ),
    ).toEqual(["1", "2", "3"]);
    expect(page1.body.windowing.next).toBe(page1.body.events[2].event_id);
    const page2 = await c.t.call("POST", "/api/events/query", {
      key: p.key,
      body: {
        event_type: "queries.revisions.committed",
        windowing: { limit: 3, order: "ascending", next: page1.body.windowing.next },
      },
    });
    expect(page2.body.count).toBe(1);
    expect(page2.body.windowing).toBeUndefined();

    const window = await c.t.call("POST", "/api/events/query", {
      key: p.key,
      body: { windowing: { oldest: all.body.events[0].created_at } },
    });
    expect(window.body.events.map((e: { event_id: string }) => e.event_id)).toContain(all.body.events[0].event_id);
    const future = await c.t.call("POST", "/api/events/query", {
      key: p.key,
      body: { windowing: { oldest: "2999-01-01T00:00:00Z" } },
    });
    expect(future.body).toEqual({ count: 0, events: [] });

    // Another project's key sees none of these.
    const mine = await eventsOf(c, "queries.revisions.committed", 1000);
    expect(mine.map((e) => e.event_id)).not.toContain(committed[0].event_id);

    const unknown = await c.t.call("POST", "/api/events/query", {
      key: p.key,
      body: { event_type: "queries.revisions.deleted" },
    });
    expectStatus(unknown, 422);
    expectStatus(await c.t.call("POST", "/api/events/query", { key: p.key, body: { types: [] } }), 422);
    expectStatus(await c.t.call("POST", "/api/events/query", { body: {} }), 401);
  });
});
