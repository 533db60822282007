import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectStatus, ingestSpans, newSpanId, newTraceId, setupAnalytics, type AnalyticsCtx } from "./helpers";

let c: AnalyticsCtx;
const HOUR = 3_600_000;
let oldest: string;
let newest: string;

const root = (attributes: Record<string, unknown>, durationMs: number) => {
  const start = Date.now() - 10 * 60_000;
  return {
    trace_id: newTraceId(),
    span_id: newSpanId(),
    span_name: "run",
    start_time: new Date(start).toISOString(),
    end_time: new Date(start + durationMs).toISOString(),
    attributes,
  };
};

beforeAll(async () => {
  c = await setupAnalytics();
  const traces = [
    root({ score: 1, colour: "red", ok: true }, 100),
    root({ score: 2, colour: "blue", ok: true }, 200),
    root({ score: 3, colour: "red", ok: false }, 300),
    root({ score: 4, colour: "red", tags: ["a", "b"] }, 400),
  ];
  const child = { ...root({ score: 100 }, 50), trace_id: traces[0].trace_id, parent_id: traces[0].span_id };
  await ingestSpans(c, [...traces, child]);
  // Ingestion time is the server's clock: a window of three hours around it, one-hour buckets.
  oldest = new Date(Date.now() - 2 * HOUR).toISOString();
  newest = new Date(Date.now() + HOUR).toISOString();
});
afterAll(() => c.t.close());

const query = (body: unknown, path = "/api/spans/analytics/query") => c.t.call("POST", path, { key: c.key, body });

describe("POST /api/spans/analytics/query", () => {
  it("summarises root spans with the default specs; buckets without data are left out", async () => {
    const res = await query({ oldest, newest, interval: 60 });
    expectStatus(res, 200);
    expect(res.body.count).toBe(1);
    const [bucket] = res.body.buckets;
    expect(bucket.interval).toBe(60);
    expect((Date.parse(bucket.timestamp) - Date.parse(oldest)) % HOUR).toBe(0);
    expect(bucket.metrics["attributes.ag.metrics.duration.cumulative"]).toMatchObject({
      type: "numeric/continuous",
      count: 4,
      sum: 1000,
      mean: 250,
      min: 100,
      max: 400,
      range: 300,
    });
    expect(bucket.metrics["attributes.ag.type.trace"]).toEqual({
      type: "categorical/single",
      count: 4,
      freq: [{ value: "invocation", count: 4, density: 1 }],
      uniq: ["invocation"],
    });
    expect(res.body.specs).toHaveLength(6);
    expect(res.body.query.windowing).toMatchObject({ interval: 60 });
  });

  it("computes the reference's blobs for each spec type, flat keys from the query string too", async () => {
    const specs = [
      { type: "numeric/continuous", path: "attributes.score" },
      { type: "categorical/single", path: "colour" },
      { type: "binary", path: "ok" },
      { type: "categorical/multiple", path: "tags" },
      { type: "numeric/discrete", path: "score" },
    ];
    const qs = new URLSearchParams({ oldest, newest, specs: JSON.stringify(specs) });
    const res = await c.t.call("POST", `/api/spans/analytics/query?${qs}`, { key: c.key, body: {} });
    expectStatus(res, 200);
    const m = res.body.buckets[0].metrics;
    // Both numeric specs share a path, so their blobs merge as the reference merges them: its
    // continuous block comes first and names the type, the discrete one adds freq and uniq.
    expect(m["attributes.score"]).toMatchObject({ count: 4, sum: 10, mean: 2.5, type: "numeric/continuous" });
    expect(m["attributes.score"].freq).toHaveLength(4);
    expect(m["attributes.score"].pcts).toMatchObject({ p25: 1.75, p50: 2.5, p75: 3.25 });
    expect(m["attributes.score"].iqrs.iqr50).toBe(1.5);
    expect(m["attributes.score"].hist).toEqual([
      { bin: 1, count: 2, interval: [1, 2.5], density: 0.5 },
      { bin: 2, count: 2, interval: [2.5, 4], density: 0.5 },
    ]);
    expect(m["attributes.colour"].freq).toEqual([
      { value: "red", count: 3, density: 0.75 },
      { value: "blue", count: 1, density: 0.25 },
    ]);
    expect(m["attributes.colour"].uniq).toEqual(["red", "blue"]);
    expect(m["attributes.ok"]).toMatchObject({ count: 3, uniq: [true, false] });
    expect(m["attributes.tags"]).toMatchObject({ count: 2, uniq: ["a", "b"] });
  });

  it("filters like span queries, samples with rate, and answers the deprecated path the same", async () => {
    const body = {
      oldest,
      newest,
      filter: JSON.stringify({ conditions: [{ field: "attributes", key: "colour", value: "red" }] }),
      specs: [{ type: "numeric/continuous", path: "score" }],
    };
    const res = await query(body);
    expectStatus(res, 200);
    expect(res.body.buckets[0].metrics["attributes.score"]).toMatchObject({ count: 3, sum: 8 });
    const twin = await query(body, "/api/tracing/analytics/query");
    expect(twin.body).toEqual(res.body);
    const none = await query({ ...body, rate: 0 });
    expect(none.body).toMatchObject({ count: 0, buckets: [] });
    const noReducer = await query({ oldest, newest, specs: [{ type: "none", path: "score" }] });
    expect(noReducer.body).toMatchObject({ count: 0, buckets: [] });
  });

  it("refuses bad input with a 400 that names the key, never an empty 200", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ filtering: {} }, "invalid_analytics_query"],
      [{ oldest: "yesterday" }, "invalid_analytics_query"],
      [{ oldest: "12345" }, "invalid_analytics_query"],
      [{ rate: 2 }, "invalid_analytics_query"],
      [{ interval: 0 }, "invalid_analytics_query"],
      [{ interval: 1 }, "too_many_buckets"],
      [{ oldest: newest, newest: oldest }, "invalid_analytics_query"],
      [{ filter: "{not json" }, "invalid_analytics_query"],
      [{ filter: { conditions: [{ field: "colour", value: "red" }] } }, "invalid_filtering"],
      [{ specs: [{ type: "numeric", path: "x" }] }, "invalid_analytics_query"],
      [{ focus: "everything" }, "invalid_analytics_query"],
      // The reference's interval is an integer: 1.5 makes it drop the whole query for its defaults.
      [{ oldest, newest, interval: 1.5 }, "invalid_analytics_query"],
    ];
    for (const [body, code] of cases) {
      const res = await query(body);
      expectStatus(res, 400);
      expect(res.body.code, JSON.stringify(body)).toBe(code);
    }
  });

  it("refuses keys split between the body and the query string, which the reference reads one part from", async () => {
    // The reference would take the body's windowing alone ({oldest}: newest the next UTC midnight).
    const res = await c.t.call("POST", `/api/spans/analytics/query?${new URLSearchParams({ newest })}`, {
      key: c.key,
      body: { oldest },
    });
    expectStatus(res, 400);
    expect(res.body.detail).toContain("one place");
    const together = await c.t.call("POST", `/api/spans/analytics/query?${new URLSearchParams({ oldest, newest })}`, {
      key: c.key,
      body: {},
    });
    expectStatus(together, 200);
  });

  it("sums and averages as the reference's numeric does (0.1 + 0.2 is 0.3); binary blobs in its order", async () => {
    const exact = { ...c, ...(await c.t.newProject("exact")) };
    await ingestSpans(exact, [
      root({ amount: 0.1, flag: false }, 100),
      root({ amount: 0.2, flag: false }, 100),
      root({ flag: true }, 100),
    ]);
    const res = await c.t.call("POST", "/api/spans/analytics/query", {
      key: exact.key,
      body: {
        oldest,
        newest,
        specs: [
          { type: "numeric/continuous", path: "amount" },
          { type: "numeric/discrete", path: "attributes.amount" },
          { type: "binary", path: "flag" },
        ],
      },
    });
    expectStatus(res, 200);
    const m = res.body.buckets[0].metrics;
    expect(m["attributes.amount"]).toMatchObject({ count: 2, sum: 0.3, mean: 0.15 });
    // A binary blob lists true, then false, whatever their counts, as the reference does.
    expect(m["attributes.flag"]).toEqual({
      type: "binary",
      count: 3,
      freq: [
        { value: true, count: 1, density: 0.33333 },
        { value: false, count: 2, density: 0.66667 },
      ],
      uniq: [true, false],
    });
  });
});
