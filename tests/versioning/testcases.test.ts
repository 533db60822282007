import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ISO_MS,
  MISSING_ID,
  UUID,
  commit,
  countEvents,
  createArtifact,
  expectStatus,
  lastEvent,
  setup,
  type Ctx,
} from "./helpers";

let c: Ctx;
beforeAll(async () => {
  c = await setup();
});
afterAll(() => c.t.close());

type Row = { id: string; data: Record<string, unknown> };

describe("testcases", () => {
  let testsetId: string;
  let variantId: string;
  let v1Rows: Row[];
  let v2Rows: Row[];
  let v2Id: string;

  beforeAll(async () => {
    const created = await createArtifact(c, "testsets", {
      data: {
        testcases: [{ data: { question: "a", answer: 1 } }, { question: "b", answer: 2 }],
        columns: ["question", "answer"],
      },
    });
    testsetId = created.artifact.id;
    variantId = created.variant.id;
    v1Rows = created.revision!.data.testcases as Row[];
    const v2 = await commit(c, "testsets", variantId, {
      testcases: [{ answer: 2, question: "b" }, { data: { question: "c", answer: 3 } }],
    });
    v2Rows = v2.data.testcases as Row[];
    v2Id = v2.id;
  });

  it("stores each row as {id, data} and keeps the id of a row whose content is unchanged", async () => {
    expect(v1Rows).toEqual([
      { id: expect.stringMatching(UUID), data: { question: "a", answer: 1 } },
      { id: expect.stringMatching(UUID), data: { question: "b", answer: 2 } },
    ]);
    expect(v1Rows[0].id).not.toBe(v1Rows[1].id);
    // Same content (key order does not matter) keeps its id; new content gets a new one.
    expect(v2Rows[0]).toEqual(v1Rows[1]);
    expect(v2Rows[1].id).not.toBe(v1Rows[0].id);
    expect(v2Rows[1].id).not.toBe(v1Rows[1].id);
    // Other revision data is kept.
    const v1 = await c.t.call("POST", "/api/testsets/revisions/retrieve", {
      key: c.key,
      body: { testset_variant_ref: { id: variantId }, testset_revision_ref: { version: "1" } },
    });
    expect(v1.body.testset_revision.data.columns).toEqual(["question", "answer"]);

    // The same content in another testset is another testcase.
    const other = await createArtifact(c, "testsets", { data: { testcases: [{ question: "a", answer: 1 }] } });
    expect((other.revision!.data.testcases as Row[])[0].id).not.toBe(v1Rows[0].id);
  });

  it("GET /api/testcases/{id} returns the testcase and emits testcases.fetched", async () => {
    const res = await c.t.call("GET", `/api/testcases/${v1Rows[0].id}`, { key: c.key });
    expectStatus(res, 200);
    expect(res.body).toEqual({
      count: 1,
      testcase: {
        id: v1Rows[0].id,
        testset_id: testsetId,
        data: { question: "a", answer: 1 },
        created_at: expect.stringMatching(ISO_MS),
      },
    });
    const event = await lastEvent(c, "testcases.fetched");
    expect(event.attributes).toEqual({ testcase_id: v1Rows[0].id, count: 1, user_id: c.userId });

    const before = await countEvents(c, "testcases.fetched");
    expectStatus(await c.t.call("GET", `/api/testcases/${MISSING_ID}`, { key: c.key }), 404);
    expectStatus(await c.t.call("GET", "/api/testcases/abc", { key: c.key }), 400);
    expect(await countEvents(c, "testcases.fetched")).toBe(before);
  });

  it("GET /api/testcases/ lists a testset's testcases oldest first, paged, and emits testcases.fetched with the ids", async () => {
    const all = [v1Rows[0].id, v1Rows[1].id, v2Rows[1].id];
    const res = await c.t.call("GET", `/api/testcases/?testset_id=${testsetId}`, { key: c.key });
    expectStatus(res, 200);
    expect(res.body.count).toBe(3);
    expect(res.body.testcases.map((t: Row) => t.id)).toEqual(all);
    expect((await lastEvent(c, "testcases.fetched")).attributes).toEqual({
      testcase_ids: all,
      count: 3,
      user_id: c.userId,
    });

    const page1 = await c.t.call("GET", `/api/testcases/?testset_id=${testsetId}&limit=2`, { key: c.key });
    expect(page1.body.testcases.map((t: Row) => t.id)).toEqual(all.slice(0, 2));
    expect(page1.body.windowing).toEqual({ next: all[1] });
    const page2 = await c.t.call(
      "GET",
      `/api/testcases/?testset_id=${testsetId}&limit=2&next=${page1.body.windowing.next}`,
      { key: c.key },
    );
    expect(page2.body).toEqual({ count: 1, testcases: [expect.objectContaining({ id: all[2] })] });

    // Nothing returned: no event.
    const empty = await createArtifact(c, "testsets");
    const before = await countEvents(c, "testcases.fetched");
    const none = await c.t.call("GET", `/api/testcases/?testset_id=${empty.artifact.id}`, { key: c.key });
    expect(none.body).toEqual({ count: 0, testcases: [] });
    expect(await countEvents(c, "testcases.fetched")).toBe(before);
    expectStatus(await c.t.call("GET", "/api/testcases/?limit=many", { key: c.key }), 422);
    expectStatus(await c.t.call("GET", "/api/testcases/?colour=red", { key: c.key }), 422);
  });

  it("POST /api/testcases/query by ids, testset, or testset revision (in row order), emitting testcases.queried", async () => {
    const byIds = await c.t.call("POST", "/api/testcases/query", {
      key: c.key,
      body: { testcase_ids: [v2Rows[1].id, v1Rows[0].id] },
    });
    expectStatus(byIds, 200);
    expect(byIds.body.testcases.map((t: Row) => t.id).sort()).toEqual([v2Rows[1].id, v1Rows[0].id].sort());
    const event = await lastEvent(c, "testcases.queried");
    expect(event.attributes).toEqual({ testcase_ids: expect.any(Array), count: 2, user_id: c.userId });
    expect([...event.attributes.testcase_ids].sort()).toEqual([v2Rows[1].id, v1Rows[0].id].sort());

    const fetchedBefore = await countEvents(c, "testsets.revisions.fetched");
    const byRevision = await c.t.call("POST", "/api/testcases/query", {
      key: c.key,
      body: { testset_revision_id: v2Id },
    });
    expectStatus(byRevision, 200);
    expect(byRevision.body.testcases.map((t: Row) => t.id)).toEqual(v2Rows.map((r) => r.id));
    expect(byRevision.body.testcases.map((t: Row) => t.data)).toEqual(v2Rows.map((r) => r.data));
    // Reading testcases is not a fetch of the testset revision.
    expect(await countEvents(c, "testsets.revisions.fetched")).toBe(fetchedBefore);

    const byTestset = await c.t.call("POST", "/api/testcases/query", {
      key: c.key,
      body: { testset_id: testsetId, windowing: { limit: 2 } },
    });
    expect(byTestset.body.count).toBe(2);
    expect(byTestset.body.windowing.next).toBe(byTestset.body.testcases[1].id);

    const queriedBefore = await countEvents(c, "testcases.queried");
    const none = await c.t.call("POST", "/api/testcases/query", { key: c.key, body: { testcase_ids: [MISSING_ID] } });
    expect(none.body).toEqual({ count: 0, testcases: [] });
    const noIds = await c.t.call("POST", "/api/testcases/query", { key: c.key, body: { testcase_ids: [] } });
    expect(noIds.body).toEqual({ count: 0, testcases: [] });
    expect(await countEvents(c, "testcases.queried")).toBe(queriedBefore);

    expectStatus(
      await c.t.call("POST", "/api/testcases/query", { key: c.key, body: { testset_revision_id: MISSING_ID } }),
      404,
    );
    expectStatus(await c.t.call("POST", "/api/testcases/query", { key: c.key, body: { testcase_ids: ["x"] } }), 422);
  });

  it("rejects malformed rows with 400 naming the row, storing nothing", async () => {
    const before = await c.t.call("POST", "/api/testsets/revisions/log", {
      key: c.key,
      body: { testset: { testset_variant_id: variantId } },
    });
    const cases: [unknown, string][] = [
      ["rows", "data.testcases"],
      [[{ q: 1 }, 7], "data.testcases[1]"],
      [[null], "data.testcases[0]"],
      [[[1, 2]], "data.testcases[0]"],
    ];
    for (const [testcases, field] of cases) {
      const res = await c.t.call("POST", "/api/testsets/revisions/commit", {
        key: c.key,
        body: { testset_revision_commit: { testset_variant_id: variantId, data: { testcases } } },
      });
      expectStatus(res, 400);
      expect(res.body.detail).toContain(field);
    }
    const after = await c.t.call("POST", "/api/testsets/revisions/log", {
      key: c.key,
      body: { testset: { testset_variant_id: variantId } },
    });
    expect(after.body.count).toBe(before.body.count);
    const listed = await c.t.call("GET", `/api/testcases/?testset_id=${testsetId}`, { key: c.key });
    expect(listed.body.count).toBe(3);

    // A testset created with bad rows is not created at all.
    const slug = "never-created";
    const res = await c.t.call("POST", "/api/testsets/", {
      key: c.key,
      body: { testset: { slug, data: { testcases: [1] } } },
    });
    expectStatus(res, 400);
    const q = await c.t.call("POST", "/api/testsets/query", {
      key: c.key,
      body: { testset: { slug }, include_archived: true },
    });
    expect(q.body.count).toBe(0);
  });
});
