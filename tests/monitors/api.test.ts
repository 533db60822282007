import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { budgetSpend } from "@/server/db/schema";
import { checkDueMonitors } from "@/server/monitors";
import { drainIngestQueue } from "@/server/tracing";
import { runSpans } from "../analytics/helpers";
import { errorRateMonitor, monitorFixture, type MonitorFixture } from "./helpers";

let f: MonitorFixture;
beforeAll(async () => {
  f = await monitorFixture();
});
afterAll(async () => {
  await f.t.close();
});

const post = (monitor: unknown) => f.t.call("POST", "/api/monitors/", { key: f.key, body: { monitor } });

describe("monitors API", () => {
  it("refuses what it cannot do, saying what to change", async () => {
    await f.agentId("a");
    const cases: [unknown, number, string][] = [
      [{ ...errorRateMonitor("a"), window_seconds: 60 }, 422, "window_seconds"],
      [{ ...errorRateMonitor("a"), window_seconds: 8 * 86_400 }, 422, "window_seconds"],
      [{ ...errorRateMonitor("a"), metric: { name: "p95" } }, 422, "metric.name"],
      [{ ...errorRateMonitor("a"), scope: { kind: "agent" } }, 400, "scope.value"],
      [{ ...errorRateMonitor("a"), recovery_threshold: 0.3 }, 400, "recovery_threshold"],
      [{ ...errorRateMonitor("a"), metric: { name: "error_rate", usage_kind: "input" } }, 400, "usage_kind"],
      [{ ...errorRateMonitor("a"), metric: { name: "budget_use" }, scope: undefined }, 400, "budget_id"],
      [{ ...errorRateMonitor("a"), channels: [{ kind: "slack", url: "http://hooks.example.com/x" }] }, 400, "https"],
      [{ ...errorRateMonitor("a"), channels: [{ kind: "teams", url: "https://127.0.0.1/x" }] }, 400, "channels[0].url"],
      [{ ...errorRateMonitor("a"), channels: [{ kind: "github", repository: "nope", token: "t" }] }, 422, "repository"],
    ];
    for (const [monitor, status, mention] of cases) {
      const res = await post(monitor);
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      expect(JSON.stringify(res.body)).toContain(mention);
    }
    const budget = await post({
      ...errorRateMonitor("a"),
      scope: undefined,
      metric: { name: "budget_use", budget_id: "0190c1a0-0000-7000-8000-000000000000" },
    });
    expect(budget.status).toBe(404);
    expect(budget.body.code).toBe("budget_not_found");
    expect((await f.t.call("GET", "/api/monitors/", { key: f.key })).body.count).toBe(0);
  });

  it("is scoped to the project, replaces, mutes, deletes", async () => {
    const m = await f.createMonitor(
      errorRateMonitor("scoped", { channels: [{ kind: "slack", url: "https://hooks.example.com/s/1" }] }),
    );
    // Named by its slug, stored as the id its runs carry, shown by its name.
    expect(m).toMatchObject({
      recovery_threshold: 0.1,
      min_samples: 3,
      scope: { kind: "agent", value: await f.agentId("scoped"), label: "scoped" },
    });
    const other = await f.t.newProject("other");
    expect((await f.t.call("GET", `/api/monitors/${m.id}`, { key: other.key })).status).toBe(404);
    expect((await f.t.call("DELETE", `/api/monitors/${m.id}`, { key: other.key })).status).toBe(404);

    const replaced = await f.t.call("PUT", `/api/monitors/${m.id}`, {
      key: f.key,
      body: { monitor: { ...errorRateMonitor("scoped"), threshold: 0.5, recovery_threshold: undefined } },
    });
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(200);
    // The default hysteresis is 10% of the threshold; channels not sent are kept.
    expect(replaced.body.monitor).toMatchObject({ threshold: 0.5, recovery_threshold: 0.45 });
    expect(replaced.body.monitor.channels).toEqual([{ kind: "slack", host: "hooks.example.com" }]);

    const past = await f.t.call("POST", `/api/monitors/${m.id}/mute`, {
      key: f.key,
      body: { until: "2001-01-01T00:00:00Z" },
    });
    expect(past.status).toBe(400);
    const until = new Date(f.clock().getTime() + 3_600_000).toISOString();
    const muted = await f.t.call("POST", `/api/monitors/${m.id}/mute`, { key: f.key, body: { until } });
    expect(muted.body.monitor).toMatchObject({ muted_until: until, muted: true });
    const unmuted = await f.t.call("POST", `/api/monitors/${m.id}/mute`, { key: f.key, body: { until: null } });
    expect(unmuted.body.monitor.muted_until).toBeUndefined();
    expect(unmuted.body.monitor.muted).toBe(false);
    await f.clear();
  });

  it("watches a budget's use of its current window", async () => {
    const created = await f.t.call("POST", "/api/controls/budgets/", {
      key: f.key,
      body: { name: "daily", scope: "project", window: "day", limit_usd: 10 },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const budget = created.body.budget;
    const m = await f.createMonitor({
      name: "budget at 80%",
      metric: { name: "budget_use", budget_id: budget.id },
      window_seconds: 300,
      operator: "above",
      threshold: 80,
    });
    // What the run path's recordSpend writes: the window's spend.
    const dayStart = new Date(Math.floor(f.clock().getTime() / 86_400_000) * 86_400_000);
    await f.t.context.db.insert(budgetSpend).values({ budgetId: budget.id, windowStart: dayStart, spentUsd: 8.5 });
    f.setClock(new Date(f.clock().getTime() + 61_000));
    await checkDueMonitors(f.t.context, 100);
    expect(await f.monitor(m.id)).toMatchObject({ state: "alerting", last_value: 85 });
    expect((await f.alerts(m.id)).map((a) => [a.kind, a.value])).toEqual([["fired", 85]]);
  });

  it("takes an agent, environment, revision, key or model only when it names one the project has or its runs carry", async () => {
    const scoped = (kind: string, value: string) => ({ ...errorRateMonitor("x"), scope: { kind, value } });
    for (const kind of ["agent", "environment", "revision", "api_key", "model"]) {
      const res = await post(
        scoped(kind, kind === "revision" || kind === "api_key" ? "0190c1a0-0000-7000-8000-00000000abcd" : "nowhere-1"),
      );
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.code).toBe("invalid_monitor");
      expect(res.body.detail).toContain("names no");
      expect(res.body.errors[0].path).toBe("monitor.scope.value");
    }
    // A slug or an id of the project's agent: both stored as the id its runs carry.
    const id = await f.agentId("picked");
    for (const value of ["picked", id])
      expect((await post(scoped("agent", value))).body.monitor.scope).toEqual({
        kind: "agent",
        value: id,
        label: "picked",
      });
    // Another project's agent is unknown here.
    const other = await f.t.newProject("other-agents");
    const theirs = await f.t.call("POST", "/api/workflows/", {
      key: other.key,
      body: { workflow: { slug: "theirs" } },
    });
    expect((await post(scoped("agent", theirs.body.workflow.id))).status).toBe(400);
    // The project's own key, shown by its name; a model of the price catalog before its first run.
    const keys = await f.t.call("GET", "/api/keys", { key: f.key });
    const key = keys.body.api_keys[0];
    expect((await post(scoped("api_key", key.id))).body.monitor.scope).toMatchObject({
      kind: "api_key",
      value: key.id,
    });
    expect((await post(scoped("model", "gpt-5-mini"))).status).toBe(200);
    // A value only traces carry (an agent traced from outside the service) is taken as it is.
    await f.t.call("POST", "/api/tracing/spans/ingest", {
      key: f.key,
      body: {
        spans: runSpans({
          agent: "outside-agent",
          model: "gpt-5-mini",
          start: new Date(f.clock().getTime() - 60_000).toISOString(),
          durationMs: 5,
        }).spans,
      },
    });
    await drainIngestQueue(f.t.context);
    expect((await post(scoped("agent", "outside-agent"))).body.monitor.scope).toEqual({
      kind: "agent",
      value: "outside-agent",
    });
    await f.clear();
  });
});
