import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectStatus, ingest, processQueue, setupTracing, spanId, traceId, type TracingCtx } from "./helpers";

// POST /api/traces/query and /api/spans/query take a saved query by reference (a `queries`
// revision): its filtering applies with the request's own, and a reference to nothing is a 404,
// never every trace of the project.
let c: TracingCtx;
const prefix = `saved_${Math.random().toString(36).slice(2, 8)}`;
const ids = { ok: traceId(), failed: traceId(), slow: traceId() };
let savedQuery: { id: string; slug: string; revision_id: string; variant_id?: string };
let firstRevision: string;

const filtering = (...conditions: Record<string, unknown>[]) => ({
  operator: "and",
  conditions: [{ field: "span_name", operator: "startswith", value: prefix }, ...conditions],
});
const ERRORS = filtering({ field: "status_code", value: "STATUS_CODE_ERROR" });
const SLOW = filtering({ field: "attributes", key: "latency", operator: "gt", value: 100 });

beforeAll(async () => {
  c = await setupTracing();
  const now = Math.floor(Date.now() / 1000);
  const span = (trace: string, name: string, start: number, status: string, latency: number) => ({
    trace_id: trace,
    span_id: spanId(),
    span_name: `${prefix}_${name}`,
    start_time: start,
    end_time: start + 1,
    status_code: status,
    attributes: { latency },
  });
  expectStatus(
    await ingest(c, {
      spans: [
        span(ids.ok, "ok", now - 30, "STATUS_CODE_OK", 10),
        span(ids.failed, "failed", now - 20, "STATUS_CODE_ERROR", 500),
        span(ids.slow, "slow", now - 10, "STATUS_CODE_OK", 900),
      ],
    }),
    202,
  );
  await processQueue(c);
  const created = await c.t.call("POST", "/api/simple/queries/", {
    key: c.key,
    body: { query: { slug: `${prefix}-errors`, data: { filtering: ERRORS } } },
  });
  expectStatus(created, 200);
  savedQuery = created.body.query;
  firstRevision = savedQuery.revision_id;
  const edited = await c.t.call("PUT", `/api/simple/queries/${savedQuery.id}`, {
    key: c.key,
    body: { query: { data: { filtering: SLOW } } },
  });
  expectStatus(edited, 200);
});
afterAll(() => c.t.close());

async function traceIds(body: Record<string, unknown>, status = 200): Promise<string[]> {
  const res = await c.t.call("POST", "/api/traces/query", { key: c.key, body });
  expectStatus(res, status);
  return res.body.traces.map((t: { trace_id: string }) => t.trace_id).sort();
}
const sorted = (...values: string[]) => [...values].sort();

describe("saved queries by reference", () => {
  it("query_ref takes the query's latest revision, query_revision_ref and a version the one named", async () => {
    expect(await traceIds({ query_ref: { slug: savedQuery.slug } })).toEqual(sorted(ids.failed, ids.slow));
    expect(await traceIds({ query_ref: { id: savedQuery.id } })).toEqual(sorted(ids.failed, ids.slow));
    expect(await traceIds({ query_revision_ref: { id: firstRevision } })).toEqual([ids.failed]);
    expect(await traceIds({ query_ref: { slug: savedQuery.slug, version: "1" } })).toEqual([ids.failed]);
  });

  it("the request's filtering holds with the saved one, and its windowing goes over the saved windowing", async () => {
    expect(
      await traceIds({
        query_ref: { slug: savedQuery.slug },
        filtering: { operator: "and", conditions: [{ field: "status_code", value: "STATUS_CODE_OK" }] },
      }),
    ).toEqual([ids.slow]);
    const windowed = await c.t.call("POST", "/api/simple/queries/", {
      key: c.key,
      body: { query: { slug: `${prefix}-newest`, data: { filtering: filtering(), windowing: { limit: 1 } } } },
    });
    expectStatus(windowed, 200);
    const one = await c.t.call("POST", "/api/traces/query", {
      key: c.key,
      body: { query_ref: { slug: `${prefix}-newest` } },
    });
    expectStatus(one, 200);
    expect(one.body.traces.map((t: { trace_id: string }) => t.trace_id)).toEqual([ids.slow]);
    expect(one.body.windowing?.next).toBeDefined();
    expect(await traceIds({ query_ref: { slug: `${prefix}-newest` }, windowing: { limit: 10 } })).toEqual(
      sorted(ids.ok, ids.failed, ids.slow),
    );
  });

  it("applies to /api/spans/query too", async () => {
    const res = await c.t.call("POST", "/api/spans/query", {
      key: c.key,
      body: { query_revision_ref: { id: firstRevision } },
    });
    expectStatus(res, 200);
    expect(res.body.spans.map((s: { span_name: string }) => s.span_name)).toEqual([`${prefix}_failed`]);
  });

  it("a reference to nothing is a 404 on both routes, another project's query included, never every trace", async () => {
    const other = await c.t.newProject("other");
    const theirs = await c.t.call("POST", "/api/simple/queries/", {
      key: other.key,
      body: { query: { slug: `${prefix}-theirs`, data: { filtering: filtering() } } },
    });
    expectStatus(theirs, 200);
    const missing = [
      { query_ref: { slug: "no-such-query" } },
      { query_ref: { id: "01a20dea-a7f9-75a3-82a6-6b784c4f3701" } },
      { query_revision_ref: { id: "01a20dea-a7f9-75a3-82a6-6b784c4f3702" } },
      { query_variant_ref: { id: "01a20dea-a7f9-75a3-82a6-6b784c4f3703" } },
      { query_ref: { slug: savedQuery.slug, version: "9" } },
      { query_revision_ref: { id: theirs.body.query.revision_id } },
      { query_ref: { slug: `${prefix}-theirs` } },
    ];
    for (const body of missing)
      for (const path of ["/api/traces/query", "/api/spans/query"]) {
        const res = await c.t.call("POST", path, { key: c.key, body });
        expect(res.status, `${path} ${JSON.stringify(body)}: ${JSON.stringify(res.body)}`).toBe(404);
        expect(res.body.code).toBe("not_found");
        expect(res.body.detail).toMatch(/query/);
      }
  });

  it("a query saved for spans is a 409 on the traces route (and the other way round)", async () => {
    const spansOnly = await c.t.call("POST", "/api/simple/queries/", {
      key: c.key,
      body: { query: { slug: `${prefix}-spans`, data: { filtering: ERRORS, formatting: { focus: "span" } } } },
    });
    expectStatus(spansOnly, 200);
    const traces = await c.t.call("POST", "/api/traces/query", {
      key: c.key,
      body: { query_ref: { slug: `${prefix}-spans` } },
    });
    expectStatus(traces, 409);
    expect(traces.body.code).toBe("focus_conflict");
    const spans = await c.t.call("POST", "/api/spans/query", {
      key: c.key,
      body: { query_ref: { slug: `${prefix}-spans` } },
    });
    expectStatus(spans, 200);
    expect(spans.body.count).toBe(1);
  });

  it("a malformed reference is a 422 naming it", async () => {
    const res = await c.t.call("POST", "/api/traces/query", { key: c.key, body: { query_revision_ref: { id: "x" } } });
    expectStatus(res, 422);
    expect(JSON.stringify(res.body.errors)).toContain("query_revision_ref");
  });
});

// The reference's loadable strategies for queries: a revision retrieve runs the query when asked.
describe("query revision retrieve with include_trace_ids / include_traces", () => {
  const retrieve = (body: Record<string, unknown>) =>
    c.t.call("POST", "/api/queries/revisions/retrieve", { key: c.key, body });

  it("answers the stored content only by default (no trace_ids, no traces)", async () => {
    const res = await retrieve({ query_revision_ref: { id: firstRevision } });
    expectStatus(res, 200);
    expect(res.body.query_revision.data.filtering).toEqual(ERRORS);
    expect(res.body.query_revision.data.trace_ids).toBeUndefined();
    expect(res.body.query_revision.data.traces).toBeUndefined();
  });

  it("include_trace_ids runs the revision's filtering and returns the matching ids only", async () => {
    const res = await retrieve({ query_ref: { slug: savedQuery.slug }, include_trace_ids: true });
    expectStatus(res, 200);
    const data = res.body.query_revision.data;
    expect([...data.trace_ids].sort()).toEqual(sorted(ids.failed, ids.slow));
    expect(data.traces).toBeUndefined();
    expect(data.filtering).toEqual(SLOW);
  });

  it("include_traces returns the trees and their ids, paged by the request's windowing over the stored one", async () => {
    const res = await retrieve({ query_ref: { slug: savedQuery.slug }, include_traces: true, windowing: { limit: 1 } });
    expectStatus(res, 200);
    const data = res.body.query_revision.data;
    expect(data.traces).toHaveLength(1);
    expect(data.trace_ids).toEqual([data.traces[0].trace_id]);
    expect(typeof data.traces[0].spans).toBe("object");
    expect(data.trace_ids[0]).toBe(ids.slow);
    expect(res.body.windowing?.next).toBeDefined();
    const rest = await retrieve({
      query_ref: { slug: savedQuery.slug },
      include_trace_ids: true,
      windowing: { limit: 10, next: res.body.windowing.next },
    });
    expectStatus(rest, 200);
    expect(rest.body.query_revision.data.trace_ids).toEqual([ids.failed]);
    expect(rest.body.windowing).toBeUndefined();
  });

  it("a filter that matches nothing gives empty lists; windowing alone or a span-focused query is refused", async () => {
    const ghost = await c.t.call("POST", "/api/simple/queries/", {
      key: c.key,
      body: {
        query: { slug: `${prefix}-ghost`, data: { filtering: filtering({ field: "span_name", value: "never" }) } },
      },
    });
    expectStatus(ghost, 200);
    const none = await retrieve({ query_ref: { slug: `${prefix}-ghost` }, include_traces: true });
    expectStatus(none, 200);
    expect(none.body.query_revision.data).toMatchObject({ trace_ids: [], traces: [] });

    const alone = await retrieve({ query_ref: { slug: savedQuery.slug }, windowing: { limit: 1 } });
    expectStatus(alone, 400);
    expect(alone.body.code).toBe("windowing_without_traces");
    const spansOnly = await retrieve({ query_ref: { slug: `${prefix}-spans` }, include_trace_ids: true });
    expectStatus(spansOnly, 409);
    expect(spansOnly.body.code).toBe("focus_conflict");
  });
});
