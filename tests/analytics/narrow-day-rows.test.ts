import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryAnalytics, type AnalyticsQuery, type AnalyticsResult } from "@/server/analytics";
import { rawQuery } from "@/server/db";
import { NARROW_DETAIL } from "@/server/tracing";
import { ingestSpans, runSpans, setupAnalytics, type AnalyticsCtx, type RunSpec } from "./helpers";

let c: AnalyticsCtx;

// Runs over three days in every dimension's values (each span also carries the ingest key, the
// API key dimension), with errors, time to first token and costs that are not sums of doubles.
const RUNS: RunSpec[] = [
  {
    agent: "a1",
    model: "m1",
    revision: "r1",
    environment: "production",
    user: "u1",
    start: "2026-03-01T01:00:00Z",
    durationMs: 1200,
    tokens: { prompt: 10, completion: 3 },
    costs: { total: 0.1 },
  },
  {
    agent: "a1",
    model: "m2",
    provider: "anthropic",
    revision: "r2",
    user: "u2",
    start: "2026-03-01T13:30:00Z",
    durationMs: 300,
    error: true,
    ttftMs: 120,
    costs: { total: 0.2 },
  },
  {
    agent: "a2",
    model: "m1",
    environment: "staging",
    start: "2026-03-02T08:15:00Z",
    durationMs: 4500,
    tokens: { prompt: 7, reasoning: 2 },
    costs: { prompt: 0.000001, total: 0.3 },
  },
  {
    agent: "a2",
    model: "m3",
    provider: "google",
    revision: "r3",
    user: "u1",
    start: "2026-03-02T23:59:00Z",
    durationMs: 800,
    ttftMs: 95,
    costs: { total: 0.7 },
  },
  // No duration and a fraction of a millisecond to the first token: histogram bins below 0, which
  // jsonb's text puts among the others by length (the m3 cell of that day holds both kinds).
  {
    agent: "a2",
    model: "m3",
    provider: "google",
    start: "2026-03-02T10:00:00Z",
    durationMs: 0,
    ttftMs: 0.4,
    costs: { total: 0.01 },
  },
  {
    agent: "a1",
    model: "m1",
    revision: "r1",
    environment: "production",
    user: "u3",
    start: "2026-03-03T12:00:00Z",
    durationMs: 2000,
    tokens: { prompt: 1 },
    costs: { total: 0.05 },
  },
];

const days = { oldest: "2026-02-28T00:00:00.000Z", newest: "2026-03-05T00:00:00.000Z", bucket: "day" } as const;
const GROUPS = [
  undefined,
  "agent",
  "model",
  "provider",
  "environment",
  "revision",
  "api_key",
  "user",
  "evaluator",
] as const;

/** Queries by day the narrow rows answer (grouped by at most one dimension, filtered on it or the trace type). */
const NARROW: [string, AnalyticsQuery][] = [
  ...GROUPS.flatMap((group_by): [string, AnalyticsQuery][] =>
    (["run", "span"] as const).map((focus) => [
      `by ${group_by ?? "nothing"}, ${focus}s`,
      { windowing: days, focus, ...(group_by ? { group_by } : {}) },
    ]),
  ),
  [
    "by model, filtered on it",
    { windowing: days, group_by: "model", filtering: { field: "model", operator: "in", value: ["m1", "m3"] } },
  ],
  [
    "by user, filtered on the trace type",
    { windowing: days, group_by: "user", filtering: { field: "trace_type", operator: "is", value: "invocation" } },
  ],
  [
    "by nothing, filtered on the trace type",
    { windowing: days, filtering: { field: "trace_type", operator: "is_not", value: "annotation" } },
  ],
];
/** Queries by day that need the wide rows: a filter on another dimension than the group's. */
const WIDE: [string, AnalyticsQuery][] = [
  [
    "by model, filtered on the agent",
    { windowing: days, group_by: "model", filtering: { field: "agent", operator: "is", value: "a1" } },
  ],
  ["by nothing, filtered on the user", { windowing: days, filtering: { field: "user", operator: "exists" } }],
];

const answer = (query: AnalyticsQuery, scan = false) =>
  queryAnalytics(c.t.context.db, c.projectId, query, { now: new Date(), scan });

async function expectScanAgrees(name: string, query: AnalyticsQuery): Promise<AnalyticsResult> {
  const rollup = await answer(query);
  expect(rollup.source, name).toBe("rollup");
  expect({ ...(await answer(query, true)), source: "rollup" }, name).toEqual(rollup);
  return rollup;
}

const narrowDetails = `{${Object.values(NARROW_DETAIL).join(",")}}`;
const narrowRows = async () =>
  rawQuery<Record<string, unknown>>(
    c.t.context.db,
    `select detail, bucket::text, root, trace_type, agent, model, provider, environment, revision, api_key, user_id,
       spans, errors, ttft_count, latency, ttft, tokens, costs, run_tokens, run_costs
     from span_rollups where project_id = $1 and grain = 'day' and detail = any($2::int2[])
     order by detail, bucket, root, trace_type, agent, model, provider, environment, revision, api_key, user_id`,
    [c.projectId, narrowDetails],
  );

const costsTo12 = (row: Record<string, unknown>) => {
  const rounded = (map: unknown) =>
    Object.fromEntries(Object.entries(map as Record<string, number>).map(([k, v]) => [k, Number(v.toFixed(12))]));
  return { ...row, costs: rounded(row.costs), run_costs: rounded(row.run_costs) };
};

beforeAll(async () => {
  c = await setupAnalytics();
  await ingestSpans(
    c,
    RUNS.flatMap((run) => runSpans(run).spans),
  );
});
afterAll(() => c.t.close());

describe("narrow day rows", () => {
  it("answer every query by day grouped by at most one dimension as the scan does", async () => {
    const byModel = await expectScanAgrees("by model", NARROW[4][1]);
    expect(byModel.groups!.map((g) => [g.key, g.metrics.count])).toEqual([
      ["m1", 3],
      ["m3", 2],
      ["m2", 1],
    ]);
    for (const [name, query] of [...NARROW, ...WIDE]) await expectScanAgrees(name, query);
  });

  it("are what those queries read: with the wide day rows gone they still answer; a filter on another dimension does not", async () => {
    const before = await Promise.all(WIDE.map(([, query]) => answer(query)));
    await rawQuery(
      c.t.context.db,
      `delete from span_rollups where project_id = $1 and grain = 'day' and not detail = any($2::int2[])`,
      [c.projectId, narrowDetails],
    );
    for (const [name, query] of NARROW) await expectScanAgrees(name, query);
    const after = await Promise.all(WIDE.map(([, query]) => answer(query)));
    expect(after.map((a) => a.metrics.count)).toEqual([0, 0]);
    expect(before.map((b) => b.metrics.count)).toEqual([3, 4]);
  });
});

describe("migration 0046", () => {
  it("writes from stored day rows the narrow rows ingest writes", async () => {
    // A project of its own: the test above deleted the other's wide day rows.
    c = await c.t.newProject("narrow backfill").then((p) => ({ ...c, ...p }));
    await ingestSpans(
      c,
      RUNS.flatMap((run) => runSpans(run).spans),
    );
    const written = await narrowRows();
    expect(written.length).toBeGreaterThan(20);
    // Every project's: the migration writes them all (the first project has no wide day rows left).
    await rawQuery(c.t.context.db, `delete from span_rollups where grain = 'day' and detail = any($1::int2[])`, [
      narrowDetails,
    ]);
    const migration = fs.readFileSync(path.join(process.cwd(), "drizzle/0046_narrow_day_rollups.sql"), "utf8");
    await c.t.context.db.transaction(async (tx) => {
      for (const statement of migration.split("--> statement-breakpoint")) await rawQuery(tx, statement);
    });
    // Ingest sums a batch's costs as doubles (0.1 + 0.2 stored as 0.30000000000000004), the
    // migration as numeric: equal to the 12 decimals analytics answers with.
    expect((await narrowRows()).map(costsTo12)).toEqual(written.map(costsTo12));
    for (const [name, query] of NARROW) await expectScanAgrees(name, query);
  });
});
