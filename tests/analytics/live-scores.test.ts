import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryAnalytics, type AnalyticsQuery } from "@/server/analytics";
import { createTestApp, type TestApp } from "../helpers/test-app";
import { liveScores, type LiveScores } from "./live-score-fixture";
import { expectStatus } from "./helpers";

const CRON_SECRET = "cron-secret-for-live-scores-0123456789";

let t: TestApp;
let key: string;
let projectId: string;
let live: LiveScores;

beforeAll(async () => {
  t = await createTestApp({ cronSecret: CRON_SECRET });
  ({ key, projectId } = await t.newProject("live-scores"));
  live = await liveScores(t, key, CRON_SECRET);
});
afterAll(async () => {
  await live?.stop();
  await t?.close();
});

const query = (body: AnalyticsQuery) => t.call("POST", "/api/analytics/query", { key, body });

/** The roll-up's answer, checked against a scan of the evaluation results for the same query. */
async function answer(body: AnalyticsQuery) {
  const res = await query(body);
  expectStatus(res, 200);
  expect(res.body.source).toBe("rollup");
  const scan = await queryAnalytics(t.context.db, projectId, body, { now: new Date(), scan: true });
  expect({ ...res.body, source: "scan" }).toEqual(JSON.parse(JSON.stringify(scan)));
  return res.body;
}

const windowing = { oldest: "2026-02-03T10:00:00Z", newest: "2026-02-03T13:00:00Z", bucket: "hour" as const };
const scoresOf = (groups: any[] | undefined, k: string) => groups?.find((g) => g.key === k)?.metrics.scores;

describe("evaluator scores of live evaluations", () => {
  it("land in the bucket of the run they scored, a late result too, grouped by evaluator and by the run's dimensions", async () => {
    const a = { agent: "agent-a", model: "gpt-5-mini", revision: "rev-1", environment: "production", durationMs: 50 };
    // similarity 1 (pass), 0.5 (fail at 0.6); exact match pass, fail.
    await live.run({ ...a, start: "2026-02-03T10:05:00Z", answer: "12", expected: "12" });
    await live.run({ ...a, start: "2026-02-03T10:20:00Z", answer: "13", expected: "12" });
    await live.run({
      agent: "agent-b",
      model: "gpt-5-mini",
      revision: "rev-2",
      environment: "staging",
      durationMs: 50,
      start: "2026-02-03T12:10:00Z",
      answer: "7",
      expected: "7",
    });
    await live.score("2026-02-03T10:00:00Z", "2026-02-03T13:00:00Z");

    const before = await answer({ windowing, group_by: "evaluator" });
    expect(scoresOf(before.buckets[0].groups, live.similarity)).toEqual({
      count: 2,
      score_count: 2,
      mean: 0.75,
      verdict_count: 2,
      pass_rate: 0.5,
    });

    // A run of 10:40 scored now, hours after its start: it lands in the 10:00 bucket.
    await live.run({ ...a, start: "2026-02-03T10:40:00Z", answer: "99", expected: "12" });
    await live.score("2026-02-03T10:00:00Z", "2026-02-03T11:00:00Z");

    const r = await answer({ windowing, group_by: "evaluator" });
    expect(r.buckets.map((b: any) => b.timestamp)).toEqual([
      "2026-02-03T10:00:00.000Z",
      "2026-02-03T11:00:00.000Z",
      "2026-02-03T12:00:00.000Z",
    ]);
    expect(r.buckets.map((b: any) => b.metrics.scores)).toEqual([
      { count: 6, score_count: 3, mean: 0.5, verdict_count: 6, pass_rate: 0.333333 },
      { count: 0, score_count: 0, verdict_count: 0 },
      { count: 2, score_count: 1, mean: 1, verdict_count: 2, pass_rate: 1 },
    ]);
    // Spans have no evaluator: they are the group without a key; each evaluator is a group of its own.
    expect(r.groups.map((g: any) => g.key)).toEqual([undefined, ...[live.exact, live.similarity].sort()]);
    expect(r.groups[0].metrics.count).toBe(4);
    expect(r.groups[0].metrics.scores.count).toBe(0);
    expect(scoresOf(r.buckets[0].groups, live.similarity)).toEqual({
      count: 3,
      score_count: 3,
      mean: 0.5,
      verdict_count: 3,
      pass_rate: 0.333333,
    });
    expect(scoresOf(r.buckets[0].groups, live.exact)).toEqual({
      count: 3,
      score_count: 0,
      verdict_count: 3,
      pass_rate: 0.333333,
    });
    expect(scoresOf(r.buckets[1].groups, live.exact)).toEqual({ count: 0, score_count: 0, verdict_count: 0 });
    expect(scoresOf(r.groups, live.similarity)).toMatchObject({ count: 4, mean: 0.625, pass_rate: 0.5 });

    const byAgent = await answer({ windowing, group_by: "agent" });
    expect(byAgent.groups.map((g: any) => [g.key, g.metrics.count, g.metrics.scores])).toEqual([
      ["agent-a", 3, { count: 6, score_count: 3, mean: 0.5, verdict_count: 6, pass_rate: 0.333333 }],
      ["agent-b", 1, { count: 2, score_count: 1, mean: 1, verdict_count: 2, pass_rate: 1 }],
    ]);
    const byEnvironment = await answer({ windowing, group_by: "environment" });
    expect(byEnvironment.groups.map((g: any) => [g.key, g.metrics.scores.count])).toEqual([
      ["production", 6],
      ["staging", 2],
    ]);
    const revision = await answer({
      windowing,
      group_by: "evaluator",
      filtering: { operator: "and", conditions: [{ field: "revision", value: "rev-2" }] },
    });
    expect(revision.metrics.scores).toEqual({ count: 2, score_count: 1, mean: 1, verdict_count: 2, pass_rate: 1 });
    expect(scoresOf(revision.groups, live.similarity)).toMatchObject({ count: 1, mean: 1 });

    // Minute buckets are computed from the results (a scan), with the same totals.
    const minutes = await query({
      windowing: { oldest: "2026-02-03T10:00:00Z", newest: "2026-02-03T11:00:00Z", bucket: "minute" },
    });
    expectStatus(minutes, 200);
    expect(minutes.body.source).toBe("scan");
    expect(minutes.body.metrics.scores).toEqual(r.buckets[0].metrics.scores);
    expect(minutes.body.buckets[40].metrics.scores).toMatchObject({ count: 2, score_count: 1, mean: 0 });
  });
});
