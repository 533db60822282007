import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { automationPass, dispatchFirings, fireDueSchedules } from "@/server/automations";
import { openDatabase } from "@/server/db";
import type { AppContext } from "@/server/core/app-context";
import { automationFixture, runsEnded, type AutomationFixture } from "./helpers";

let f: AutomationFixture;
beforeAll(async () => {
  f = await automationFixture();
});
afterAll(async () => {
  await f.close();
});

async function createSchedule(fields: Record<string, unknown>) {
  const res = await f.t.call("POST", "/api/automations/", {
    key: f.key,
    body: {
      automation: {
        kind: "schedule",
        name: "nightly",
        references: { workflow_revision: { id: f.revisionId } },
        input: { messages: [{ role: "user", content: "Report for {{ scheduled_at }}" }] },
        ...fields,
      },
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.automation;
}

async function deliveries(id: string) {
  const res = await f.t.call("GET", `/api/automations/${id}/deliveries`, { key: f.key });
  expect(res.status).toBe(200);
  return (res.body.deliveries as any[]).slice().reverse();
}

async function runStatus(runId: string) {
  const res = await f.t.call("GET", `/services/agent/v0/runs/${runId}`, { key: f.key });
  return res.body.run.status as string;
}

describe("preview and validation", () => {
  it("describes a cron and lists its next five fire times in its zone", async () => {
    f.setClock("2026-03-27T12:00:00Z");
    const res = await f.t.call("POST", "/api/automations/preview", {
      key: f.key,
      body: { cron: "30 2 * * *", timezone: "Europe/Berlin" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      description: "At 02:30 AM (Europe/Berlin)",
      next_fire_times: [
        "2026-03-28T01:30:00.000Z",
        // The spring-forward night has no 02:30: it fires once, at 03:00 CEST.
        "2026-03-29T01:00:00.000Z",
        "2026-03-30T00:30:00.000Z",
        "2026-03-31T00:30:00.000Z",
        "2026-04-01T00:30:00.000Z",
      ],
    });
  });

  it("refuses a cron that is not five fields, a zone that is not IANA, and a cron that never fires", async () => {
    for (const [cron, timezone, code] of [
      ["* * * * * *", "UTC", "invalid_cron"],
      ["not-cron", "UTC", "invalid_cron"],
      ["99 * * * *", "UTC", "invalid_cron"],
      ["0 0 31 2 *", "UTC", "invalid_cron"],
      ["0 * * * *", "Mars/Olympus", "invalid_timezone"],
    ]) {
      const res = await f.t.call("POST", "/api/automations/", {
        key: f.key,
        body: {
          automation: {
            kind: "schedule",
            name: "bad",
            cron,
            timezone,
            references: { workflow_revision: { id: f.revisionId } },
            input: { messages: [{ role: "user", content: "x" }] },
          },
        },
      });
      expect(res.status, cron).toBe(400);
      expect(res.body.code).toBe(code);
    }
  });
});

describe("firing", () => {
  it("02:30 in Europe/Berlin fires once on the night the clock skips and once on the night it repeats", async () => {
    f.setClock("2026-03-28T12:00:00Z");
    const s = await createSchedule({ cron: "30 2 * * *", timezone: "Europe/Berlin" });
    expect(s.next_fire_at).toBe("2026-03-29T01:00:00.000Z");
    for (const at of ["2026-03-29T00:59:59Z", "2026-03-29T01:00:01Z", "2026-03-29T01:30:01Z", "2026-03-29T02:30:01Z"]) {
      f.setClock(at);
      await automationPass(f.t.context);
    }
    const [spring] = await deliveries(s.id);
    await runsEnded(f.t.context);
    expect(await runStatus(spring.run_id)).toBe("finished");
    // The repeat night: 02:30 CEST (00:30Z) and again 02:30 CET (01:30Z); it fires at the first only.
    f.setClock("2026-10-24T12:00:00Z");
    await f.t.call("POST", `/api/automations/${s.id}/pause`, { key: f.key });
    const resumed = await f.t.call("POST", `/api/automations/${s.id}/resume`, { key: f.key });
    expect(resumed.body.automation.next_fire_at).toBe("2026-10-25T00:30:00.000Z");
    for (const at of ["2026-10-25T00:30:01Z", "2026-10-25T01:30:01Z", "2026-10-25T02:30:01Z"]) {
      f.setClock(at);
      await automationPass(f.t.context);
    }
    const fired = await deliveries(s.id);
    expect(fired.map((d) => [d.scheduled_at, d.status])).toEqual([
      ["2026-03-29T01:00:00.000Z", "started"],
      ["2026-10-25T00:30:00.000Z", "started"],
    ]);
    expect(fired[0]).toMatchObject({ fired_at: "2026-03-29T01:00:01.000Z", session_id: `automation-${fired[0].id}` });
    await runsEnded(f.t.context);
    expect(await runStatus(fired[1].run_id)).toBe("finished");
    const run = await f.t.call("GET", `/services/agent/v0/runs/${fired[0].run_id}`, { key: f.key });
    expect(run.body.run).toMatchObject({ origin: "automation", background: true, session_id: fired[0].session_id });
    // The message was filled from the firing's payload.
    expect(JSON.stringify(f.model.requests.at(-1)?.body)).toContain("Report for 2026-10-25T00:30:00.000Z");
  });

  it("a paused schedule does not fire; resumed, it owes nothing for the paused time", async () => {
    f.setClock("2026-05-01T10:00:30Z");
    const s = await createSchedule({ cron: "*/5 * * * *" });
    await f.t.call("POST", `/api/automations/${s.id}/pause`, { key: f.key });
    f.setClock("2026-05-01T10:30:00Z");
    await automationPass(f.t.context);
    expect(await deliveries(s.id)).toEqual([]);
    const listed = await f.t.call("GET", "/api/automations/", { key: f.key });
    expect(listed.body.automations.find((a: any) => a.id === s.id)).not.toHaveProperty("next_fire_at");
    const resumed = await f.t.call("POST", `/api/automations/${s.id}/resume`, { key: f.key });
    expect(resumed.body.automation.next_fire_at).toBe("2026-05-01T10:35:00.000Z");
    expect(resumed.body.automation.next_fire_times).toHaveLength(5);
    await automationPass(f.t.context);
    expect(await deliveries(s.id)).toEqual([]);
  });

  it("after downtime, the missed times within the catch-up window fire once; older ones are recorded as skipped", async () => {
    f.setClock("2026-06-01T08:00:30Z");
    const s = await createSchedule({ cron: "*/10 * * * *", catch_up_seconds: 1800 });
    // Down from 08:00:30 to 09:05: 08:10 ... 09:00 were missed (six fire times).
    f.setClock("2026-06-01T09:05:00Z");
    await automationPass(f.t.context);
    await automationPass(f.t.context);
    const rows = await deliveries(s.id);
    expect(rows.map((d) => [d.scheduled_at.slice(11, 16), d.status])).toEqual([
      ["08:10", "skipped"],
      ["08:20", "skipped"],
      ["08:30", "skipped"],
      ["08:40", "skipped"],
      ["08:50", "skipped"],
      ["09:00", "started"],
    ]);
    expect(rows[0].error).toContain("past the schedule's catch-up window of 1800 s");
    // Deliveries page as every list does; an unknown one is the automations' own not-found.
    const page = await f.t.call("GET", `/api/automations/${s.id}/deliveries?limit=4`, { key: f.key });
    expect(page.body).toMatchObject({ count: 4, windowing: { next: page.body.deliveries[3].id } });
    const rest = await f.t.call("GET", `/api/automations/${s.id}/deliveries?next=${page.body.windowing.next}`, {
      key: f.key,
    });
    expect(rest.body.deliveries.map((d: { scheduled_at: string }) => d.scheduled_at.slice(11, 16))).toEqual([
      "08:20",
      "08:10",
    ]);
    const unknown = await f.t.call("GET", `/api/automations/deliveries/${s.id}`, { key: f.key });
    expect([unknown.status, unknown.body.code]).toEqual([404, "automation_delivery_not_found"]);
    expect(rows[4].error).toContain("folded into the firing at 2026-06-01T09:00:00.000Z");
    const after = await f.t.call("GET", `/api/automations/${s.id}`, { key: f.key });
    expect(after.body.automation).toMatchObject({
      next_fire_at: "2026-06-01T09:10:00.000Z",
      last_fired_at: "2026-06-01T09:00:00.000Z",
      last_delivery: { status: "started", scheduled_at: "2026-06-01T09:00:00.000Z" },
    });
  });
});

describe("overlap policies", () => {
  async function firstRunning(policy: string) {
    f.setClock("2026-07-01T00:00:30Z");
    const s = await createSchedule({ cron: "* * * * *", overlap_policy: policy });
    f.model.respondWith(() => ({ kind: "reply", text: "slow", delayMs: 4_000 }));
    f.setClock("2026-07-01T00:01:01Z");
    await automationPass(f.t.context);
    const [first] = await deliveries(s.id);
    expect(first.status).toBe("started");
    expect(await runStatus(first.run_id)).toBe("running");
    return { s, first };
  }

  it("skip: a firing while the previous run is running is recorded as skipped", async () => {
    const { s, first } = await firstRunning("skip");
    f.setClock("2026-07-01T00:02:01Z");
    await automationPass(f.t.context);
    const [, second] = await deliveries(s.id);
    expect(second).toMatchObject({ status: "skipped", error: expect.stringContaining(first.run_id) });
    f.model.respondWith(() => ({ kind: "reply", text: "done" }));
    await runsEnded(f.t.context);
    expect(await runStatus(first.run_id)).toBe("finished");
  });

  it("queue_one: one firing waits for the previous run and then starts; a second is skipped", async () => {
    const { s, first } = await firstRunning("queue_one");
    f.setClock("2026-07-01T00:02:01Z");
    await automationPass(f.t.context);
    f.setClock("2026-07-01T00:03:01Z");
    await automationPass(f.t.context);
    let rows = await deliveries(s.id);
    expect(rows.map((d) => d.status)).toEqual(["started", "queued", "skipped"]);
    f.model.respondWith(() => ({ kind: "reply", text: "done" }));
    await runsEnded(f.t.context);
    expect(await runStatus(first.run_id)).toBe("finished");
    // The queued firing is looked at again after its short wait.
    f.setClock("2026-07-01T00:03:10Z");
    await dispatchFirings(f.t.context, 10);
    rows = await deliveries(s.id);
    expect(rows.map((d) => d.status)).toEqual(["started", "started", "skipped"]);
    expect(rows[1].scheduled_at).toBe("2026-07-01T00:02:00.000Z");
    await runsEnded(f.t.context);
    expect(await runStatus(rows[1].run_id)).toBe("finished");
  });

  it("cancel_previous: the previous run is cancelled and the new one starts", async () => {
    const { s, first } = await firstRunning("cancel_previous");
    f.setClock("2026-07-01T00:02:01Z");
    f.model.respondWith(() => ({ kind: "reply", text: "done" }));
    await automationPass(f.t.context);
    const rows = await deliveries(s.id);
    expect(rows.map((d) => d.status)).toEqual(["started", "started"]);
    expect(await runStatus(first.run_id)).not.toBe("running");
    await runsEnded(f.t.context);
    expect(await runStatus(rows[1].run_id)).toBe("finished");
  });
});

describe.runIf(process.env.DATABASE_URL)("exactly once across processes", () => {
  it("three app processes and a worker firing the same schedules start one run per fire time", async () => {
    f.setClock("2026-08-01T00:00:30Z");
    const schedules = [];
    for (let i = 0; i < 5; i++) schedules.push(await createSchedule({ cron: "*/15 * * * *", name: `s${i}` }));
    const handles = await Promise.all([1, 2, 3].map(() => openDatabase({ url: f.t.database.url!, maxConnections: 4 })));
    const processes: AppContext[] = [f.t.context, ...handles.map((h) => ({ ...f.t.context, db: h.db }))];
    try {
      for (const at of ["2026-08-01T00:15:01Z", "2026-08-01T00:30:01Z", "2026-08-01T01:00:01Z"]) {
        f.setClock(at);
        await Promise.all(processes.flatMap((app) => [fireDueSchedules(app, 2), fireDueSchedules(app, 50)]));
        await Promise.all(processes.map((app) => dispatchFirings(app, 3)));
        await Promise.all(processes.map((app) => automationPass(app)));
        // Each tick's runs end before the next, so the overlap policy does not skip the next firing.
        await Promise.all(processes.map((app) => runsEnded(app)));
      }
      for (const s of schedules) {
        const rows = await deliveries(s.id);
        // 00:15 and 00:30 fire; at 01:00:01 the 00:45 time is folded into the 01:00 firing.
        expect(rows.map((d) => [d.scheduled_at.slice(11, 16), d.status])).toEqual([
          ["00:15", "started"],
          ["00:30", "started"],
          ["00:45", "skipped"],
          ["01:00", "started"],
        ]);
        expect(new Set(rows.filter((d) => d.run_id).map((d) => d.run_id)).size).toBe(3);
      }
      for (const s of schedules)
        for (const d of await deliveries(s.id)) if (d.run_id) expect(await runStatus(d.run_id)).toBe("finished");
    } finally {
      await Promise.all(handles.map((h) => h.close()));
    }
  });
});
