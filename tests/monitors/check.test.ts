import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { checkDueMonitors, monitorPass } from "@/server/monitors";
import { anotherInstance } from "../helpers/app-instance";
import { errorRateMonitor, monitorFixture, type MonitorFixture } from "./helpers";

// Every test sets the clock to its own hour of yesterday (spans may not start far in the future).
const BASE = Math.floor(Date.now() / 86_400_000) * 86_400_000 - 86_400_000;
const hour = (h: number, mmss: string) => {
  const [mm, ss] = mmss.split(":").map(Number);
  return new Date(BASE + h * 3_600_000 + mm * 60_000 + ss * 1000).toISOString();
};

let f: MonitorFixture;
beforeAll(async () => {
  f = await monitorFixture();
});
afterEach(async () => {
  await f.clear();
});
afterAll(async () => {
  await f.t.close();
});

describe("monitor evaluation (injected clock)", () => {
  it("fires once when the error rate crosses, does not flap at the threshold, re-notifies at its interval, resolves", async () => {
    f.setClock(hour(1, "00:30"));
    const m = await f.createMonitor(errorRateMonitor("flaky", { renotify_seconds: 600 }));
    expect(m).toMatchObject({ state: "no_data", next_evaluation_at: hour(1, "01:00") });

    await f.runs("flaky", 10, 1, hour(1, "00:10")); // 10%
    f.setClock(hour(1, "01:05"));
    expect(await checkDueMonitors(f.t.context, 100)).toBe(1);
    expect(await f.monitor(m.id)).toMatchObject({ state: "ok", last_value: 0.1, last_samples: 10 });

    await f.runs("flaky", 2, 2, hour(1, "00:20")); // 3 of 12: 25%
    f.setClock(hour(1, "02:05"));
    await monitorPass(f.t.context);
    f.setClock(hour(1, "03:05"));
    await monitorPass(f.t.context);
    expect((await f.alerts(m.id)).map((a) => [a.kind, a.state, a.value])).toEqual([["fired", "alerting", 0.25]]);

    // 3 of 15 is exactly the threshold: not above it, but not back to 10% either. No flapping.
    await f.runs("flaky", 3, 0, hour(1, "00:40"));
    f.setClock(hour(1, "04:05"));
    await monitorPass(f.t.context);
    expect(await f.monitor(m.id)).toMatchObject({ state: "alerting", last_value: 0.2 });
    expect(await f.alerts(m.id)).toHaveLength(1);

    // No worker for eight minutes: each missed minute is checked, in order; the one ten minutes
    // after the firing re-notifies, and only that one.
    f.setClock(hour(1, "12:05"));
    expect(await checkDueMonitors(f.t.context, 100)).toBe(8);
    const afterGap = await f.alerts(m.id);
    expect(afterGap.map((a) => [a.kind, a.evaluated_at])).toEqual([
      ["fired", hour(1, "02:00")],
      ["renotified", hour(1, "12:00")],
    ]);

    await f.runs("flaky", 15, 0, hour(1, "00:50")); // 3 of 30: 10%
    f.setClock(hour(1, "13:05"));
    await monitorPass(f.t.context);
    const done = await f.alerts(m.id);
    expect(done.map((a) => [a.kind, a.state, a.value])).toEqual([
      ["fired", "alerting", 0.25],
      ["renotified", "alerting", 0.2],
      ["resolved", "ok", 0.1],
    ]);
    expect(await f.monitor(m.id)).toMatchObject({ state: "ok", state_since: hour(1, "13:00") });
    // The history pages as every list does: `windowing.next` while more remain.
    const page = await f.t.call("GET", `/api/monitors/${m.id}/alerts?limit=2`, { key: f.key });
    expect(page.body).toMatchObject({ count: 2, windowing: { next: page.body.alerts[1].id } });
    expect(page.body.alerts.map((a: { kind: string }) => a.kind)).toEqual(["resolved", "renotified"]);
    const rest = await f.t.call("GET", `/api/monitors/${m.id}/alerts?limit=2&next=${page.body.windowing.next}`, {
      key: f.key,
    });
    expect(rest.body.alerts.map((a: { kind: string }) => a.kind)).toEqual(["fired"]);
    expect(rest.body).not.toHaveProperty("windowing");

    const fired = (await f.eventsOf("monitors.alert.fired")).filter((e) => e.attributes.monitor_id === m.id);
    const resolved = (await f.eventsOf("monitors.alert.resolved")).filter((e) => e.attributes.monitor_id === m.id);
    expect(fired.map((e) => e.attributes.kind).sort()).toEqual(["fired", "renotified"]);
    expect(resolved).toHaveLength(1);
    expect(resolved[0].attributes).toMatchObject({
      metric: "error_rate",
      scope: { kind: "agent", value: await f.agentId("flaky"), label: "flaky" },
      threshold: 0.2,
      value: 0.1,
      samples: 30,
      window_start: hour(1, "00:00"),
      window_end: hour(1, "15:00"),
    });
    expect(resolved[0].attributes.message).toContain("error rate for agent flaky is back at 10%");
    expect(resolved[0].attributes.analytics_url).toBe(
      `/analytics?oldest=${encodeURIComponent(hour(1, "00:00"))}&newest=${encodeURIComponent(hour(1, "15:00"))}`,
    );
  });

  it("records but does not notify while muted; an alert still open when the mute ends notifies once", async () => {
    f.setClock(hour(3, "00:30"));
    const m = await f.createMonitor(errorRateMonitor("muted", { muted_until: hour(3, "05:30") }));
    await f.runs("muted", 4, 4, hour(3, "00:10"));
    f.setClock(hour(3, "01:05"));
    await monitorPass(f.t.context);
    f.setClock(hour(3, "04:05"));
    await monitorPass(f.t.context);
    const muted = await f.alerts(m.id);
    expect(muted.map((a) => [a.kind, a.muted])).toEqual([["fired", true]]);
    expect((await f.eventsOf("monitors.alert.fired")).filter((e) => e.attributes.monitor_id === m.id)).toEqual([]);

    f.setClock(hour(3, "07:05"));
    await monitorPass(f.t.context);
    const after = await f.alerts(m.id);
    expect(after.map((a) => [a.kind, a.muted, a.evaluated_at])).toEqual([
      ["fired", true, hour(3, "01:00")],
      ["renotified", false, hour(3, "06:00")],
    ]);
    const events = (await f.eventsOf("monitors.alert.fired")).filter((e) => e.attributes.monitor_id === m.id);
    expect(events).toHaveLength(1);
  });

  it("is no_data without enough samples, and never fires then", async () => {
    f.setClock(hour(5, "00:30"));
    const empty = await f.createMonitor(errorRateMonitor("nobody"));
    const few = await f.createMonitor(errorRateMonitor("few", { min_samples: 5 }));
    await f.runs("few", 2, 2, hour(5, "00:10")); // 100% errors, but 2 runs
    f.setClock(hour(5, "03:05"));
    expect(await checkDueMonitors(f.t.context, 100)).toBe(6);
    for (const id of [empty.id, few.id]) {
      expect(await f.monitor(id)).toMatchObject({ state: "no_data" });
      expect(await f.alerts(id)).toEqual([]);
    }
    expect((await f.monitor(few.id)).last_samples).toBe(2);
  });

  it("resolves into no_data when the samples stop", async () => {
    f.setClock(hour(7, "00:30"));
    const m = await f.createMonitor(errorRateMonitor("stops"));
    await f.runs("stops", 3, 3, hour(7, "00:10"));
    f.setClock(hour(7, "01:05"));
    await monitorPass(f.t.context);
    // The 5-minute window reads whole quarter hours: the runs leave it at 07:20.
    f.setClock(hour(7, "21:05"));
    await monitorPass(f.t.context);
    const alerts = await f.alerts(m.id);
    expect(alerts.map((a) => [a.kind, a.state, a.evaluated_at])).toEqual([
      ["fired", "alerting", hour(7, "01:00")],
      ["resolved", "no_data", hour(7, "20:00")],
    ]);
  });

  it("two worker processes check each monitor once", async () => {
    f.setClock(hour(9, "00:30"));
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push((await f.createMonitor(errorRateMonitor("busy", { name: `busy ${i}` }))).id);
    await f.runs("busy", 5, 5, hour(9, "00:10"));
    const other = await anotherInstance(f.t);
    try {
      f.setClock(hour(9, "03:05"));
      // Small batches, so the two processes interleave their claims.
      const drain = async (app: typeof f.t.context) => {
        let total = 0;
        for (let n = await checkDueMonitors(app, 2); n > 0; n = await checkDueMonitors(app, 2)) total += n;
        return total;
      };
      const [a, b] = await Promise.all([drain(f.t.context), drain(other.context)]);
      // Three minutes owed by each of 12 monitors, checked once in all.
      expect(a + b).toBe(36);
      for (const id of ids) {
        expect((await f.alerts(id)).map((x) => [x.kind, x.evaluated_at])).toEqual([["fired", hour(9, "01:00")]]);
        expect(await f.monitor(id)).toMatchObject({ state: "alerting", next_evaluation_at: hour(9, "04:00") });
      }
      const events = (await f.eventsOf("monitors.alert.fired")).filter((e) => ids.includes(e.attributes.monitor_id));
      expect(events).toHaveLength(12);
    } finally {
      await other.close();
    }
  });
});
