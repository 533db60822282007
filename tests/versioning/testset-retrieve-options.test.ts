import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectStatus, setup, uniq, type Ctx } from "./helpers";

// The compat API's loadables: a testset retrieve returns the rows' ids and the rows unless told
// otherwise, and pages them with `windowing`.
let c: Ctx;
let revisionId: string;
let rows: { id: string; data: Record<string, unknown> }[];
beforeAll(async () => {
  c = await setup();
  const created = await c.t.call("POST", "/api/simple/testsets/", {
    key: c.key,
    body: { testset: { slug: uniq("ts"), data: { testcases: [{ q: 1 }, { q: 2 }, { q: 3 }, { q: 4 }, { q: 5 }] } } },
  });
  expectStatus(created, 200);
  revisionId = created.body.testset.revision_id;
  const full = await retrieve({});
  rows = full.body.testset_revision.data.testcases;
});
afterAll(() => c.t.close());

const retrieve = (options: Record<string, unknown>) =>
  c.t.call("POST", "/api/testsets/revisions/retrieve", {
    key: c.key,
    body: { testset_revision_ref: { id: revisionId }, ...options },
  });

describe("testset revision retrieve options", () => {
  it("returns testcase_ids beside the testcases by default, in row order", async () => {
    expect(rows.map((r) => r.data.q)).toEqual([1, 2, 3, 4, 5]);
    const res = await retrieve({});
    expect(res.body.testset_revision.data.testcase_ids).toEqual(rows.map((r) => r.id));
    expect(res.body.windowing).toBeUndefined();
  });

  it("include_testcases: false leaves the ids only; include_testcase_ids: false the rows only; both false neither", async () => {
    const ids = await retrieve({ include_testcases: false, include_testcase_ids: true });
    expectStatus(ids, 200);
    expect(ids.body.testset_revision.data).toEqual({ testcase_ids: rows.map((r) => r.id) });
    const items = await retrieve({ include_testcase_ids: false });
    expect(items.body.testset_revision.data).toEqual({ testcases: rows });
    const neither = await retrieve({ include_testcases: false, include_testcase_ids: false });
    expect(neither.body.testset_revision.data).toEqual({});
  });

  it("windowing pages the rows: limit, then next from the last id, until no next comes back", async () => {
    const first = await retrieve({ include_testcases: false, windowing: { limit: 2 } });
    expect(first.body.testset_revision.data.testcase_ids).toEqual([rows[0].id, rows[1].id]);
    expect(first.body.windowing).toEqual({ next: rows[1].id });
    const second = await retrieve({ windowing: { limit: 2, next: first.body.windowing.next } });
    expect(second.body.testset_revision.data.testcases).toEqual([rows[2], rows[3]]);
    const last = await retrieve({ windowing: { limit: 2, next: second.body.windowing.next } });
    expect(last.body.testset_revision.data.testcase_ids).toEqual([rows[4].id]);
    expect(last.body.windowing).toBeUndefined();
    const descending = await retrieve({ include_testcases: false, windowing: { order: "descending", limit: 1 } });
    expect(descending.body.testset_revision.data.testcase_ids).toEqual([rows[4].id]);
  });

  it("an empty testset gives empty lists, and a limit past the rows gives them all", async () => {
    const empty = await c.t.call("POST", "/api/simple/testsets/", {
      key: c.key,
      body: { testset: { slug: uniq("empty"), data: { testcases: [] } } },
    });
    expectStatus(empty, 200);
    const res = await c.t.call("POST", "/api/testsets/revisions/retrieve", {
      key: c.key,
      body: { testset_revision_ref: { id: empty.body.testset.revision_id } },
    });
    expectStatus(res, 200);
    expect(res.body.testset_revision.data).toMatchObject({ testcase_ids: [], testcases: [] });
    const all = await retrieve({ windowing: { limit: 10_000 } });
    expect(all.body.testset_revision.data.testcase_ids).toHaveLength(5);
    expect(all.body.testset_revision.data.testcases).toHaveLength(5);
    expect(all.body.windowing).toBeUndefined();
  });

  it("refuses a cursor that is no row of the revision (400) and options of another domain (422)", async () => {
    const bad = await retrieve({ windowing: { next: "01900000-0000-7000-8000-000000000000" } });
    expectStatus(bad, 400);
    expect(bad.body.detail).toContain("windowing.next");
    expectStatus(
      await c.t.call("POST", "/api/applications/revisions/retrieve", {
        key: c.key,
        body: { application_ref: { slug: "x" }, include_testcases: true },
      }),
      422,
    );
    // Trace options are the query retrieve's (the compat API's testset request has none).
    const traces = await retrieve({ include_trace_ids: true });
    expectStatus(traces, 422);
    expect(JSON.stringify(traces.body.errors)).toContain("include_trace_ids");
  });
});
