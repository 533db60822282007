import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkDueMonitors } from "@/server/monitors";
import { liveScores, type LiveScores } from "../analytics/live-score-fixture";
import { createTestApp, type TestApp } from "../helpers/test-app";

const CRON_SECRET = "cron-secret-for-score-monitors-0123456789";
// Two hours into yesterday (UTC): spans may not start in the future of the real clock.
const H = Math.floor(Date.now() / 86_400_000) * 86_400_000 - 86_400_000 + 2 * 3_600_000;
const at = (mmss: string) => {
  const [mm, ss] = mmss.split(":").map(Number);
  return new Date(H + mm * 60_000 + ss * 1000).toISOString();
};

let t: TestApp;
let key: string;
let live: LiveScores;
let agentM: string;
let now = new Date(H);

beforeAll(async () => {
  t = await createTestApp({ cronSecret: CRON_SECRET });
  t.context.now = () => new Date(now);
  ({ key } = await t.newProject("score-monitors"));
  live = await liveScores(t, key, CRON_SECRET);
  const agent = await t.call("POST", "/api/workflows/", {
    key,
    body: { workflow: { slug: "agent-m", name: "Agent M" } },
  });
  expect(agent.status, JSON.stringify(agent.body)).toBe(200);
  agentM = agent.body.workflow.id;
});
afterAll(async () => {
  await live?.stop();
  await t?.close();
});

async function monitor(body: Record<string, unknown>) {
  return t.call("POST", "/api/monitors/", { key, body: { monitor: body } });
}

/** `n` runs of agent-m at `start`, answered right (similarity 1) or wrong (0), scored by the live evaluation. */
async function runs(start: string, n: number, right: boolean) {
  for (let i = 0; i < n; i++)
    await live.run({
      agent: agentM,
      model: "gpt-5-mini",
      durationMs: 40,
      start,
      answer: right ? "12" : "99",
      expected: "12",
    });
  await live.score(new Date(H).toISOString(), new Date(H + 3_600_000).toISOString());
}

describe("a monitor on a live evaluation's score (injected clock)", () => {
  it("needs the evaluator, and only score metrics take one", async () => {
    const base = { name: "s", window_seconds: 300, operator: "below", threshold: 0.5 };
    const missing = await monitor({ ...base, metric: { name: "score_mean" } });
    expect(missing.status).toBe(400);
    expect(missing.body.errors[0].path).toBe("monitor.metric.evaluator");
    const stray = await monitor({ ...base, metric: { name: "error_rate", evaluator: live.similarity } });
    expect(stray.status).toBe(400);
    const spans = await monitor({ ...base, metric: { name: "score_mean", focus: "span", evaluator: live.similarity } });
    expect(spans.status).toBe(400);
  });

  it("fires when the evaluator's mean score drops below its threshold, holds between threshold and recovery, resolves", async () => {
    now = new Date(at("00:30"));
    const created = await monitor({
      name: "similarity of agent-m",
      metric: { name: "score_mean", evaluator: live.similarity },
      scope: { kind: "agent", value: "agent-m" },
      window_seconds: 300,
      operator: "below",
      threshold: 0.5,
      recovery_threshold: 0.7,
      min_samples: 2,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.monitor.id as string;
    expect(created.body.monitor.metric).toEqual({ name: "score_mean", focus: "run", evaluator: live.similarity });
    const read = async () => (await t.call("GET", `/api/monitors/${id}`, { key })).body.monitor;
    const alerts = async () =>
      [...(await t.call("GET", `/api/monitors/${id}/alerts`, { key })).body.alerts]
        .reverse()
        .map((a: any) => [a.kind, a.state, a.value, a.samples]);

    now = new Date(at("05:05"));
    await runs(at("02:00"), 2, true);
    await checkDueMonitors(t.context, 100);
    expect(await read()).toMatchObject({ state: "ok", last_value: 1, last_samples: 2 });

    // Two wrong answers at :20. Windows reaching back to :02 average 0.5 (not below it); from :20 on, 0.
    now = new Date(at("21:05"));
    await runs(at("20:00"), 2, false);
    await checkDueMonitors(t.context, 100);
    expect(await alerts()).toEqual([["fired", "alerting", 0, 2]]);

    // Four right answers at :31: windows that still hold :20 (read as [:15, :45)) average 0.667,
    // short of the 0.7 recovery; from :35 the window is [:30, :45), all right.
    now = new Date(at("33:05"));
    await runs(at("31:00"), 4, true);
    await checkDueMonitors(t.context, 100);
    expect(await read()).toMatchObject({ state: "alerting", last_samples: 6 });
    expect((await read()).last_value).toBeCloseTo(0.666667, 5);

    now = new Date(at("36:05"));
    await checkDueMonitors(t.context, 100);
    expect(await alerts()).toEqual([
      ["fired", "alerting", 0, 2],
      ["resolved", "ok", 1, 4],
    ]);
    const fired = await t.call("POST", "/api/events/query", { key, body: { event_type: "monitors.alert.fired" } });
    expect(fired.body.events.map((e: any) => e.attributes.message)).toEqual([
      expect.stringContaining("mean evaluator score 0 is below 0.5 for agent Agent M (5 min window, 2 scored results)"),
    ]);
  });

  it("reads no_data for an evaluator with results but no scores (pass rate is its figure)", async () => {
    now = new Date(at("40:30"));
    const mean = await monitor({
      name: "exact mean",
      metric: { name: "score_mean", evaluator: live.exact },
      window_seconds: 3600,
      operator: "below",
      threshold: 0.5,
    });
    const rate = await monitor({
      name: "exact pass rate",
      metric: { name: "score_pass_rate", evaluator: live.exact },
      window_seconds: 3600,
      operator: "below",
      threshold: 0.5,
    });
    now = new Date(at("41:05"));
    await checkDueMonitors(t.context, 100);
    const get = async (id: string) => (await t.call("GET", `/api/monitors/${id}`, { key })).body.monitor;
    expect(await get(mean.body.monitor.id)).toMatchObject({ state: "no_data", last_samples: 0 });
    // 6 of 8 exact matches passed within the hour.
    expect(await get(rate.body.monitor.id)).toMatchObject({ state: "ok", last_value: 0.75, last_samples: 8 });
  });
});
