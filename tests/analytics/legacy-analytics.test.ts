import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectStatus, ingestSpans, newSpanId, newTraceId, setupAnalytics, type AnalyticsCtx } from "./helpers";

/** The reference's legacy POST /tracing/spans/analytics: hourly buckets, zero-filled, oldest first. */
let c: AnalyticsCtx;
beforeAll(async () => {
  c = await setupAnalytics();
  const root = (failed: boolean, tokens: number) => {
    const traceId = newTraceId();
    const rootId = newSpanId();
    return [
      {
        trace_id: traceId,
        span_id: rootId,
        span_name: "invoke_agent a",
        start_time: "2026-03-01T10:00:00.000Z",
        end_time: "2026-03-01T10:00:02.000Z",
        attributes: { "gen_ai.operation.name": "invoke_agent" },
        ...(failed ? { events: [{ name: "exception", timestamp: "2026-03-01T10:00:01.000Z", attributes: {} }] } : {}),
      },
      {
        trace_id: traceId,
        span_id: newSpanId(),
        parent_id: rootId,
        span_name: "chat m",
        start_time: "2026-03-01T10:00:00.000Z",
        end_time: "2026-03-01T10:00:01.000Z",
        attributes: { "gen_ai.operation.name": "chat", "ag.metrics.tokens.incremental.total": tokens },
      },
    ];
  };
  await ingestSpans(c, [...root(false, 10), ...root(true, 5)]);
});
afterAll(() => c.t.close());

const legacy = (body: unknown, query = "") =>
  c.t.call("POST", `/api/tracing/spans/analytics${query}`, { key: c.key, body });

describe("POST /api/tracing/spans/analytics", () => {
  it("answers every hourly bucket of the window, zero-filled, with the runs' totals and the failed ones", async () => {
    // Spans are bucketed by ingestion time: a window around now.
    const now = Date.now();
    const oldest = new Date(Math.floor(now / 3_600_000) * 3_600_000 - 2 * 3_600_000).toISOString();
    const newest = new Date(Math.floor(now / 3_600_000) * 3_600_000 + 3_600_000).toISOString();
    const res = await legacy({ oldest, newest, interval: 60 });
    expectStatus(res, 200);
    expect(res.body.count).toBe(3);
    expect(res.body.buckets.map((b: any) => b.timestamp)).toEqual(
      [0, 1, 2].map((h) => new Date(Date.parse(oldest) + h * 3_600_000).toISOString()),
    );
    const [first, second, third] = res.body.buckets;
    expect(first).toEqual({
      timestamp: oldest,
      interval: 60,
      total: { count: 0, duration: 0, costs: 0, tokens: 0 },
      errors: { count: 0, duration: 0, costs: 0, tokens: 0 },
    });
    expect(second.total.count).toBe(0);
    expect(third.total).toMatchObject({ count: 2, tokens: 15, duration: 4000 });
    expect(third.errors).toMatchObject({ count: 1, tokens: 5, duration: 2000 });

    const spans = await legacy({ oldest, newest, interval: 60, focus: "span" });
    expect(spans.body.buckets[2].total).toMatchObject({ count: 4, tokens: 15 });
    expect(spans.body.buckets[2].errors.count).toBe(1);

    // Flat keys from the query string too.
    const query = await legacy({}, `?oldest=${oldest}&newest=${newest}&interval=60`);
    expect(query.body.buckets[2].total.count).toBe(2);
  });

  it("refuses specs, a bad window and too many buckets with a 400", async () => {
    expectStatus(await legacy({ specs: [] }), 400);
    expectStatus(await legacy({ oldest: "2026-03-02T00:00:00Z", newest: "2026-03-01T00:00:00Z" }), 400);
    expectStatus(await legacy({ oldest: "2026-01-01T00:00:00Z", newest: "2026-03-01T00:00:00Z", interval: 1 }), 400);
    expectStatus(await legacy({ interval: 90.5 }), 400);
    expectStatus(await legacy({ limit: "ten" }), 400);
    // Split between body and query string: the reference would read the body's windowing alone.
    expectStatus(await legacy({ interval: 60 }, "?oldest=2026-03-01T00:00:00Z"), 400);
  });

  it("takes limit and rate as the reference does (checked, not applied), and sums costs as numeric", async () => {
    const now = Date.now();
    const oldest = new Date(now - 3_600_000).toISOString();
    const newest = new Date(now + 3_600_000).toISOString();
    const exact = { ...c, ...(await c.t.newProject("legacy-exact")) };
    const run = (cost: number) => ({
      trace_id: newTraceId(),
      span_id: newSpanId(),
      span_name: "run",
      start_time: new Date(now - 60_000).toISOString(),
      end_time: new Date(now - 59_000).toISOString(),
      attributes: { "ag.metrics.costs.incremental.total": cost },
    });
    await ingestSpans(exact, [run(0.1), run(0.2)]);
    const call = (body: Record<string, unknown>) =>
      c.t.call("POST", "/api/tracing/spans/analytics", { key: exact.key, body: { oldest, newest, ...body } });
    const plain = await call({});
    expectStatus(plain, 200);
    expect(plain.body.count).toBe(1);
    expect(plain.body.buckets[0].total).toEqual({ count: 2, duration: 2000, costs: 0.3, tokens: 0 });
    const limited = await call({ limit: 1, rate: 0.01 });
    expectStatus(limited, 200);
    expect(limited.body).toEqual(plain.body);
  });

  it("refuses a top-level operator other than and, under which the reference miscounts errors", async () => {
    const now = Date.now();
    const window = { oldest: new Date(now - 3_600_000).toISOString(), newest: new Date(now + 3_600_000).toISOString() };
    const conditions = [
      { field: "span_name", value: "invoke_agent a" },
      { field: "span_name", value: "nothing" },
    ];
    const or = await legacy({ ...window, filter: { operator: "or", conditions } });
    expectStatus(or, 400);
    expect(or.body.detail).toContain('"operator": "and"');
    const nested = await legacy({
      ...window,
      filter: { operator: "and", conditions: [{ operator: "or", conditions }] },
    });
    expectStatus(nested, 200);
    expect(nested.body.buckets.map((b: any) => [b.total.count, b.errors.count])).toEqual([[2, 1]]);
  });
});
