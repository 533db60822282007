import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryAnalytics, type AnalyticsResult } from "@/server/analytics";
import { createApiKey } from "@/server/auth";
import { rawQuery } from "@/server/db";
import { projectMembers } from "@/server/db/schema";
import { drainIngestQueue } from "@/server/tracing";
import { analytics, expectStatus, ingestSpans, runSpans, setupAnalytics, type AnalyticsCtx } from "./helpers";

let c: AnalyticsCtx;
const a1 = runSpans({
  agent: "agent-a",
  model: "house-model-a",
  revision: "rev-a1",
  environment: "production",
  user: "u1",
  start: "2026-01-10T01:15:00.000Z",
  durationMs: 1000,
  tokens: { prompt: 100, completion: 20, cache_read: 50 },
  costs: { prompt: 0.001, completion: 0.002, total: 0.003 },
});
const a2 = runSpans({
  agent: "agent-a",
  model: "house-model-a",
  revision: "rev-a2",
  start: "2026-01-10T01:45:00.000Z",
  durationMs: 3000,
  error: true,
  tokens: { prompt: 10, completion: 5 },
  ttftMs: 250,
});
const b1 = runSpans({
  agent: "agent-b",
  model: "house-model-b",
  provider: "anthropic",
  start: "2026-01-10T03:20:00.000Z",
  durationMs: 2000,
  tokens: { prompt: 7, completion: 3, reasoning: 4 },
  costs: { total: 0.5 },
});
const b2 = runSpans({
  agent: "agent-b",
  model: "house-model-b",
  provider: "anthropic",
  start: "2026-01-10T23:30:00.000Z",
  durationMs: 500,
});

const hours = { oldest: "2026-01-10T00:00:00.000Z", newest: "2026-01-10T05:00:00.000Z", bucket: "hour" };

beforeAll(async () => {
  c = await setupAnalytics();
  await ingestSpans(c, [...a1.spans, ...a2.spans, ...b1.spans, ...b2.spans]);
});
afterAll(() => c.t.close());

async function ok(body: unknown): Promise<AnalyticsResult> {
  const res = await analytics(c, body);
  expectStatus(res, 200);
  return res.body;
}

/** The same query answered by a scan of the spans: the roll-up must agree with it exactly. */
async function expectScanAgrees(body: Record<string, unknown>, result: AnalyticsResult) {
  const scan = await queryAnalytics(c.t.context.db, c.projectId, body, { now: new Date(), scan: true });
  expect({ ...scan, source: result.source }).toEqual(result);
}

describe("buckets and groups", () => {
  it("buckets runs by hour, grouped by agent, with empty buckets as zeros", async () => {
    const body = { windowing: hours, group_by: "agent" };
    const r = await ok(body);
    expect(r.source).toBe("rollup");
    expect(r.count).toBe(5);
    expect(r.buckets.map((b) => b.timestamp)).toEqual([0, 1, 2, 3, 4].map((h) => `2026-01-10T0${h}:00:00.000Z`));
    expect(r.buckets.map((b) => b.metrics.count)).toEqual([0, 2, 0, 1, 0]);
    expect(r.buckets[2].metrics).toEqual({
      count: 0,
      errors: 0,
      error_rate: 0,
      tokens: {},
      costs: {},
      latency_ms: { mean: 0, p50: 0, p90: 0, p99: 0 },
      ttft_ms: { count: 0, mean: 0, p50: 0, p90: 0, p99: 0 },
      scores: { count: 0, score_count: 0, verdict_count: 0 },
    });
    expect(r.buckets[1].metrics).toMatchObject({ count: 2, errors: 1, error_rate: 0.5 });
    expect(r.groups!.map((g) => [g.key, g.metrics.count, g.metrics.errors])).toEqual([
      ["agent-a", 2, 1],
      ["agent-b", 1, 0],
    ]);
    // Every bucket lists every group, zeros included, in the order of the totals.
    expect(r.buckets[3].groups!.map((g) => [g.key, g.metrics.count])).toEqual([
      ["agent-a", 0],
      ["agent-b", 1],
    ]);
    // A run's tokens and costs are its whole trace's, every usage kind the spans carry.
    expect(r.metrics.tokens).toEqual({ prompt: 117, completion: 28, cache_read: 50, reasoning: 4 });
    expect(r.metrics.costs).toEqual({ prompt: 0.001, completion: 0.002, total: 0.503 });
    // Percentiles from the log histogram: within 1% of 1000, 2000, 3000 ms.
    expect(Math.abs(r.metrics.latency_ms.p50 - 2000) / 2000).toBeLessThan(0.01);
    expect(Math.abs(r.metrics.latency_ms.p99 - 3000) / 3000).toBeLessThan(0.01);
    expect(r.metrics.latency_ms.mean).toBe(2000);
    await expectScanAgrees(body, r);
  });

  it("counts spans with their own tokens and time to first token in span focus", async () => {
    const body = { focus: "span", windowing: hours, group_by: "model" };
    const r = await ok(body);
    expect(r.metrics).toMatchObject({ count: 6, errors: 2 });
    expect(r.metrics.ttft_ms.count).toBe(1);
    expect(Math.abs(r.metrics.ttft_ms.p50 - 250) / 250).toBeLessThan(0.01);
    expect(r.groups!.map((g) => [g.key, g.metrics.count, g.metrics.tokens.prompt])).toEqual([
      ["house-model-a", 4, 110],
      ["house-model-b", 2, 7],
    ]);
    await expectScanAgrees(body, r);
  });

  it("groups by provider, revision, environment and user, leaving out the key of spans without one", async () => {
    const by = async (group_by: string) =>
      (await ok({ windowing: hours, group_by })).groups!.map((g) => [g.key ?? null, g.metrics.count]);
    expect(await by("provider")).toEqual([
      ["openai", 2],
      ["anthropic", 1],
    ]);
    expect(await by("revision")).toEqual([
      [null, 1],
      ["rev-a1", 1],
      ["rev-a2", 1],
    ]);
    expect(await by("environment")).toEqual([
      [null, 2],
      ["production", 1],
    ]);
    expect(await by("user")).toEqual([
      [null, 2],
      ["u1", 1],
    ]);
  });

  it("filters on dimensions from the roll-ups, and on anything else of a trace query by a scan", async () => {
    const dim = await ok({ windowing: hours, filtering: { conditions: [{ field: "agent", value: "agent-a" }] } });
    expect(dim).toMatchObject({ source: "rollup", metrics: { count: 2 } });
    const notIn = await ok({
      windowing: hours,
      filtering: { conditions: [{ field: "model", operator: "not_in", value: ["house-model-a"] }] },
    });
    expect(notIn.metrics.count).toBe(1);
    const byName = {
      windowing: hours,
      filtering: { conditions: [{ field: "span_name", operator: "startswith", value: "invoke_agent agent-b" }] },
    };
    expect(await ok(byName)).toMatchObject({ source: "scan", metrics: { count: 1 } });
    const byAttribute = { windowing: hours, group_by: { attribute: "ag.meta.system" } };
    const r = await ok(byAttribute);
    expect(r.source).toBe("scan");
    expect(r.groups!.map((g) => [g.key, g.metrics.count])).toEqual([
      ["openai", 2],
      ["anthropic", 1],
    ]);
  });
});

describe("API keys", () => {
  const window = { oldest: "2026-02-01T00:00:00.000Z", newest: "2026-02-01T03:00:00.000Z", bucket: "hour" };

  it("each span carries the key that sent it (over a value the client wrote), and groups and filters by it", async () => {
    const k1 = await createApiKey(c.t.context.db, { projectId: c.projectId, userId: c.userId });
    const k2 = await createApiKey(c.t.context.db, { projectId: c.projectId, userId: c.userId });
    const forged = runSpans({
      agent: "agent-k",
      model: "house-model-a",
      start: "2026-02-01T00:10:00.000Z",
      durationMs: 100,
      attributes: { "ag.meta.api_key.id": k2.apiKey.id },
    });
    await ingestSpans({ ...c, key: k1.secret }, forged.spans);
    for (const start of ["2026-02-01T01:10:00.000Z", "2026-02-01T02:10:00.000Z"])
      await ingestSpans(
        { ...c, key: k2.secret },
        runSpans({ agent: "agent-k", model: "house-model-a", start, durationMs: 100 }).spans,
      );

    const grouped = await ok({ windowing: window, group_by: "api_key" });
    expect(grouped.source).toBe("rollup");
    expect(grouped.groups!.map((g) => [g.key, g.metrics.count])).toEqual([
      [k2.apiKey.id, 2],
      [k1.apiKey.id, 1],
    ]);
    expect(grouped.buckets[0].groups!.map((g) => g.metrics.count)).toEqual([0, 1]);
    await expectScanAgrees({ windowing: window, group_by: "api_key" }, grouped);

    const filter = {
      windowing: window,
      focus: "span",
      filtering: { conditions: [{ field: "api_key", value: k1.apiKey.id }] },
    };
    const one = await ok(filter);
    expect(one).toMatchObject({ source: "rollup", metrics: { count: 2 } });
    expect(one.buckets.map((b) => b.metrics.count)).toEqual([2, 0, 0]);
    await expectScanAgrees(filter, one);
  });
});

describe("late spans", () => {
  it("a run sent late lands in the bucket of its start; a child sent later adds to its run's totals", async () => {
    const late = runSpans({
      agent: "agent-c",
      model: "house-model-a",
      start: "2026-01-10T02:10:00.000Z",
      durationMs: 100,
    });
    await ingestSpans(c, late.spans);
    let r = await ok({ windowing: hours });
    expect(r.buckets.map((b) => b.metrics.count)).toEqual([0, 2, 1, 1, 0]);

    // A second model call of run a1, arriving in its own request: the run's tokens grow, the run count does not.
    const extra = {
      trace_id: a1.traceId,
      span_id: "00000000000000aa",
      parent_id: a1.rootId,
      span_name: "chat house-model-a",
      start_time: "2026-01-10T01:15:00.500Z",
      end_time: "2026-01-10T01:15:00.900Z",
      attributes: { "gen_ai.operation.name": "chat", "ag.metrics.tokens.incremental.prompt": 1000 },
    };
    await ingestSpans(c, [extra]);
    r = await ok({ windowing: hours });
    expect(r.buckets[1].metrics.count).toBe(2);
    expect(r.buckets[1].metrics.tokens.prompt).toBe(1110);
    const spans = await ok({ windowing: hours, focus: "span" });
    expect(spans.buckets[1].metrics.count).toBe(5);
    await expectScanAgrees({ windowing: hours }, r);

    // The late run sent again with another start moves buckets; nothing is counted twice.
    await ingestSpans(c, [
      { ...late.root, start_time: "2026-01-10T04:10:00.000Z", end_time: "2026-01-10T04:10:01.000Z" },
    ]);
    r = await ok({ windowing: hours });
    expect(r.buckets.map((b) => b.metrics.count)).toEqual([0, 2, 0, 1, 1]);
    await expectScanAgrees({ windowing: hours }, r);
  });
});

describe("a queued ingest row without its sums", () => {
  it("is summed again from its spans by the worker (as for rows migration 0035 empties)", async () => {
    const run = runSpans({
      agent: "agent-q",
      model: "house-model-q",
      start: "2026-03-05T10:00:00.000Z",
      durationMs: 1500,
      tokens: { prompt: 9, completion: 1 },
      costs: { total: 0.25 },
    });
    expectStatus(await c.t.call("POST", "/api/tracing/spans/ingest", { key: c.key, body: { spans: run.spans } }), 202);
    const emptied = await rawQuery(
      c.t.context.db,
      "update span_ingest set rollup = null where project_id = $1::uuid returning id",
      [c.projectId],
    );
    expect(emptied).toHaveLength(1);
    await drainIngestQueue(c.t.context);
    const body = {
      windowing: { oldest: "2026-03-05T00:00:00.000Z", newest: "2026-03-06T00:00:00.000Z", bucket: "day" },
      group_by: "agent",
    };
    const r = await ok(body);
    expect(r.source).toBe("rollup");
    expect(r.groups!.map((g) => [g.key, g.metrics.count, g.metrics.tokens, g.metrics.costs])).toEqual([
      ["agent-q", 1, { prompt: 9, completion: 1 }, { total: 0.25 }],
    ]);
    await expectScanAgrees(body, r);
  });
});

describe("dimension values with the characters of an array's text form", () => {
  it("keep their quotes, braces, commas and backslashes through the roll-up", async () => {
    const agent = 'agent "q", {b} \\ c';
    const run = runSpans({ agent, model: "house,model", start: "2026-06-07T10:00:00.000Z", durationMs: 500 });
    await ingestSpans(c, run.spans);
    const body = {
      windowing: { oldest: "2026-06-07T00:00:00.000Z", newest: "2026-06-08T00:00:00.000Z", bucket: "day" },
      group_by: "agent",
    };
    const r = await ok(body);
    expect(r.source).toBe("rollup");
    expect(r.groups!.map((g) => [g.key, g.metrics.count])).toEqual([[agent, 1]]);
    await expectScanAgrees(body, r);
  });
});

describe("cost sums in the table", () => {
  it("stay exact decimals when batches are merged into a stored row (0.1 then 0.2 is 0.3)", async () => {
    for (const prompt of [0.1, 0.2]) {
      const run = runSpans({
        agent: "agent-exact",
        model: "house-exact",
        start: "2026-07-01T10:00:00.000Z",
        durationMs: 500,
        costs: { prompt },
      });
      await ingestSpans(c, run.spans);
    }
    const stored = await rawQuery<{ root: boolean; costs: string; run_costs: string }>(
      c.t.context.db,
      `select root, costs::text as costs, run_costs::text as run_costs from span_rollups
        where project_id = $1::uuid and grain = 'day' and detail = 2 and model = 'house-exact' order by root`,
      [c.projectId],
    );
    expect(stored.map((r) => [r.root, JSON.parse(r.costs), JSON.parse(r.run_costs)])).toEqual([
      [false, { prompt: 0.3 }, {}],
      [true, {}, { prompt: 0.3 }],
    ]);
  });
});

describe("time zones", () => {
  const days = { oldest: "2026-01-10T00:00:00.000Z", newest: "2026-01-12T00:00:00.000Z", bucket: "day" };

  it("day buckets are UTC days unless the request names a zone", async () => {
    const utc = await ok({ windowing: days });
    expect(utc.windowing.timezone).toBe("UTC");
    expect(utc.buckets.map((b) => [b.timestamp, b.metrics.count])).toEqual([
      ["2026-01-10T00:00:00.000Z", 5],
      ["2026-01-11T00:00:00.000Z", 0],
    ]);
  });

  it("a zone half an hour off UTC moves the boundaries (and the run at 23:30 UTC into the next local day)", async () => {
    const body = { windowing: { ...days, timezone: "Asia/Kolkata" } };
    const r = await ok(body);
    expect(r.buckets.map((b) => [b.timestamp, b.metrics.count])).toEqual([
      ["2026-01-09T18:30:00.000Z", 4],
      ["2026-01-10T18:30:00.000Z", 1],
      ["2026-01-11T18:30:00.000Z", 0],
    ]);
    await expectScanAgrees(body, r);
    const hourly = await ok({
      windowing: { oldest: "2026-01-10T01:00:00.000Z", newest: "2026-01-10T02:00:00.000Z", timezone: "Asia/Kolkata" },
    });
    expect(hourly.buckets.map((b) => [b.timestamp, b.metrics.count])).toEqual([
      ["2026-01-10T00:30:00.000Z", 1],
      ["2026-01-10T01:30:00.000Z", 1],
    ]);
  });

  it("days of a zone with daylight saving are calendar days (23 hours on the day clocks go forward)", async () => {
    const before = runSpans({ agent: "agent-d", model: "m", start: "2026-03-08T04:30:00.000Z", durationMs: 10 });
    const after = runSpans({ agent: "agent-d", model: "m", start: "2026-03-09T04:30:00.000Z", durationMs: 10 });
    await ingestSpans(c, [...before.spans, ...after.spans]);
    const body = {
      windowing: {
        oldest: "2026-03-07T12:00:00.000Z",
        newest: "2026-03-09T12:00:00.000Z",
        bucket: "day",
        timezone: "America/New_York",
      },
    };
    const r = await ok(body);
    expect(r.buckets.map((b) => [b.timestamp, b.metrics.count])).toEqual([
      ["2026-03-07T05:00:00.000Z", 1],
      ["2026-03-08T05:00:00.000Z", 0],
      ["2026-03-09T04:00:00.000Z", 1],
    ]);
    await expectScanAgrees(body, r);
  });
});

describe("refusals and scope", () => {
  it("bad input is a 4xx that says what to change, never an empty 200", async () => {
    const cases: [unknown, number, string][] = [
      [
        { windowing: { oldest: "2026-01-01T00:00:00Z", newest: "2026-03-01T00:00:00Z", bucket: "minute" } },
        400,
        "too_many_buckets",
      ],
      [{ windowing: { ...hours, timezone: "Mars/Olympus_Mons" } }, 400, "bad_timezone"],
      [{ windowing: { oldest: hours.newest, newest: hours.oldest } }, 400, "bad_window"],
      [{ windowing: hours, filtering: { conditions: [{ field: "colour", value: "red" }] } }, 400, "invalid_filtering"],
      [
        { windowing: hours, filtering: { conditions: [{ field: "agent", operator: "matches", value: "a" }] } },
        400,
        "invalid_filtering",
      ],
      [{ windowing: hours, group_by: "colour" }, 422, "validation_error"],
      [{ windowing: { ...hours, bucket: "week" } }, 422, "validation_error"],
      [{ window: hours }, 422, "validation_error"],
    ];
    for (const [body, status, code] of cases) {
      const res = await analytics(c, body);
      expectStatus(res, status);
      expect(res.body.code).toBe(code);
      expect(res.body.detail.length).toBeGreaterThan(10);
    }
  });

  it("answers only from the caller's project, and a viewer may read it", async () => {
    const other = await c.t.newProject("other");
    const res = await analytics({ ...c, ...other }, { windowing: hours });
    expectStatus(res, 200);
    expect(res.body.metrics.count).toBe(0);

    await c.t.context.db
      .insert(projectMembers)
      .values({ projectId: c.projectId, userId: other.userId, role: "viewer" });
    const { secret } = await createApiKey(c.t.context.db, { projectId: c.projectId, userId: other.userId });
    const viewer = await analytics(c, { windowing: hours }, secret);
    expectStatus(viewer, 200);
    expect(viewer.body.metrics.count).toBe(4);
  });
});
