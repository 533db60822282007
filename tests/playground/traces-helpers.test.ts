import { describe, expect, it } from "vitest";
import { flattenTrace } from "@/components/traces/flatten-trace";
import { formatDuration } from "@/components/ui/format-duration";
import { filtersOf, tracePath, tracesPath } from "@/components/traces/trace-paths";
import { traceSearchQuery, traceSearchSchema } from "@/server/tracing/trace-search";

const span = (id: string, name: string, start: string, end: string, extra: Record<string, unknown> = {}) => ({
  trace_id: "t",
  span_id: id,
  span_name: name,
  span_type: "task",
  start_time: start,
  end_time: end,
  status_code: "STATUS_CODE_OK",
  attributes: {},
  ...extra,
});

describe("flattenTrace", () => {
  it("orders the tree depth first by start time, places bars on the trace's axis and reads roll-ups from the roots", () => {
    const root = span("a", "invoke_agent", "2026-01-01T00:00:00.000000Z", "2026-01-01T00:00:02.000000Z", {
      attributes: {
        ag: {
          metrics: {
            tokens: { cumulative: { prompt: 100, completion: 20, total: 120 } },
            costs: { cumulative: { total: 0.5 } },
          },
        },
      },
      spans: {
        chat: [
          span("c2", "chat", "2026-01-01T00:00:01.000000Z", "2026-01-01T00:00:02.000000Z", {
            status_code: "STATUS_CODE_ERROR",
            status_message: "boom",
          }),
          span("c1", "chat", "2026-01-01T00:00:00.000500Z", "2026-01-01T00:00:01.000000Z", {
            spans: { tool: span("x", "tool", "2026-01-01T00:00:00.500000Z", "2026-01-01T00:00:00.750000Z") },
          }),
        ],
      },
    });
    const summary = flattenTrace({ spans: { invoke_agent: root } });
    expect(summary.rows.map((r) => [r.spanId, r.depth])).toEqual([
      ["a", 0],
      ["c1", 1],
      ["x", 2],
      ["c2", 1],
    ]);
    expect(summary.rows[1].offsetMs).toBeCloseTo(0.5, 5);
    expect(summary.rows[2]).toMatchObject({ offsetMs: 500, durationMs: 250 });
    expect(summary).toMatchObject({
      durationMs: 2000,
      tokens: { input: 100, output: 20, total: 120 },
      cost: 0.5,
      errors: 1,
    });
    expect(summary.rows[3]).toMatchObject({ error: true, statusMessage: "boom" });
    expect(summary.rows[0].span).not.toHaveProperty("spans");
  });

  it("a trace with a model call that has no price has no cost, not a partial sum", () => {
    const span = (id: string, parent: string | undefined, ag: object) => ({
      span_id: id,
      ...(parent ? { parent_id: parent } : {}),
      span_name: id,
      start_time: "2026-01-01T00:00:00.000Z",
      end_time: "2026-01-01T00:00:01.000Z",
      attributes: { ag },
    });
    const trace = {
      trace_id: "t",
      spans: {
        root: {
          ...span("root", undefined, { metrics: { costs: { cumulative: { total: 0.5 } } } }),
          spans: {
            priced: span("priced", "root", { meta: { pricing: { source: "catalog" } } }),
            unpriced: span("unpriced", "root", { meta: { pricing: { source: "none", reason: "custom endpoint" } } }),
          },
        },
      },
    };
    expect(flattenTrace(trace as never).cost).toBeUndefined();
  });

  it("formats durations", () => {
    // Number and unit never split across lines (a no-break space between them).
    expect(formatDuration(850)).toBe("850\u00a0ms");
    expect(formatDuration(2400)).toBe("2.4\u00a0s");
    expect(formatDuration(12_340)).toBe("12.3\u00a0s");
    expect(formatDuration(65_000)).toBe("1\u00a0min 5\u00a0s");
    expect(formatDuration(undefined)).toBe("—");
  });
});

describe("trace links and filters", () => {
  it("round-trips filters through the URL and ignores unknown values", () => {
    expect(tracesPath({ text: "refund", status: "error", since: "24h" })).toBe(
      "/traces?q=refund&status=error&since=24h",
    );
    expect(filtersOf({ q: " refund ", status: "error", since: "24h" })).toEqual({
      text: "refund",
      status: "error",
      since: "24h",
    });
    expect(filtersOf({ status: "weird", since: "1y" })).toEqual({
      text: undefined,
      status: undefined,
      since: undefined,
      agent: undefined,
      minCost: undefined,
    });
    expect(tracesPath({ agent: "refund-bot", minCost: 0.5 })).toBe("/traces?agent=refund-bot&min_cost=0.5");
    expect(filtersOf({ agent: "refund-bot", min_cost: "0.5" })).toMatchObject({ agent: "refund-bot", minCost: 0.5 });
    expect(filtersOf({ min_cost: "-2" }).minCost).toBeUndefined();
    expect(filtersOf({ min_cost: "lots" }).minCost).toBeUndefined();
    expect(filtersOf({ min_cost: "" }).minCost).toBeUndefined();
    expect(tracePath("abc", "s1")).toBe("/traces/abc?span=s1");
  });

  it("turns a search into the query language", () => {
    const now = new Date("2026-01-02T00:00:00.000Z");
    expect(traceSearchQuery(traceSearchSchema.parse({ text: "refund", status: "error", since: "24h" }), now)).toEqual({
      filtering: {
        operator: "and",
        conditions: [
          { field: "content", operator: "contains", value: "refund" },
          { field: "status_code", value: "STATUS_CODE_ERROR" },
        ],
      },
      windowing: { limit: 50, oldest: "2026-01-01T00:00:00.000Z" },
    });
    expect(traceSearchQuery(traceSearchSchema.parse({}), now)).toEqual({
      filtering: undefined,
      windowing: { limit: 50 },
    });
    expect(traceSearchQuery(traceSearchSchema.parse({ agent: "refund-bot", minCost: 0.25 }), now).filtering).toEqual({
      operator: "and",
      conditions: [
        { field: "attributes", key: "gen_ai.agent.name", value: "refund-bot" },
        { field: "attributes", key: "ag.metrics.costs.cumulative.total", operator: "gte", value: 0.25 },
      ],
    });
    // An analytics chart's bucket: [from, to), from over since.
    const bucket = { from: "2026-01-01T10:00:00.000Z", to: "2026-01-01T10:01:00.000Z" };
    expect(traceSearchQuery(traceSearchSchema.parse({ ...bucket, since: "30d" }), now).windowing).toEqual({
      limit: 50,
      oldest: bucket.from,
      newest: bucket.to,
    });
    expect(filtersOf({ from: bucket.from, to: "not a time" })).toMatchObject({ from: bucket.from, to: undefined });
    expect(tracesPath(bucket)).toBe("/traces?from=2026-01-01T10%3A00%3A00.000Z&to=2026-01-01T10%3A01%3A00.000Z");
  });
});
