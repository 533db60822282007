import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { automationFixture, type AutomationFixture } from "../automations/helpers";

let f: AutomationFixture;
beforeAll(async () => {
  f = await automationFixture();
});
afterAll(async () => {
  await f.close();
});

async function auditOf(targetId: string) {
  const res = await f.t.call("GET", "/api/audit", { key: f.key });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (
    res.body.audit_entries as { action: string; target: { type: string; id?: string }; before?: any; after?: any }[]
  )
    .filter((e) => e.target.id === targetId)
    .reverse();
}

describe("the audit log records monitor and automation changes", () => {
  it("a monitor's creation, change, mute and deletion, without a channel's secret", async () => {
    const monitor = {
      name: "errors",
      metric: { name: "error_rate" },
      scope: { kind: "agent", value: "reporter" },
      window_seconds: 300,
      operator: "above",
      threshold: 0.2,
      channels: [{ kind: "slack", url: "https://hooks.example.com/services/SECRET-PATH" }],
    };
    const created = await f.t.call("POST", "/api/monitors/", { key: f.key, body: { monitor } });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.monitor.id;
    expect(
      (await f.t.call("PUT", `/api/monitors/${id}`, { key: f.key, body: { monitor: { ...monitor, threshold: 0.5 } } }))
        .status,
    ).toBe(200);
    const until = new Date(f.clock().getTime() + 3_600_000).toISOString();
    expect((await f.t.call("POST", `/api/monitors/${id}/mute`, { key: f.key, body: { until } })).status).toBe(200);
    expect((await f.t.call("DELETE", `/api/monitors/${id}`, { key: f.key })).status).toBe(204);
    const entries = await auditOf(id);
    expect(entries.map((e) => e.action)).toEqual([
      "monitor.created",
      "monitor.updated",
      "monitor.muted",
      "monitor.deleted",
    ]);
    expect(entries[1].before.threshold).toBe(0.2);
    expect(entries[1].after.threshold).toBe(0.5);
    expect(entries[0].after.scope).toMatchObject({ kind: "agent", label: "reporter" });
    expect(entries[0].after.channels).toEqual([{ kind: "slack", host: "hooks.example.com" }]);
    expect(JSON.stringify(entries)).not.toContain("SECRET-PATH");
  });

  it("an automation's creation, change, pause, resume and deletion", async () => {
    const automation = {
      kind: "schedule",
      name: "nightly",
      cron: "0 3 * * *",
      timezone: "Europe/Paris",
      references: { workflow_revision: { id: f.revisionId } },
      input: { messages: [{ role: "user", content: "Report" }] },
    };
    const created = await f.t.call("POST", "/api/automations/", { key: f.key, body: { automation } });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.automation.id;
    const replaced = await f.t.call("PUT", `/api/automations/${id}`, {
      key: f.key,
      body: { automation: { ...automation, cron: "0 4 * * *" } },
    });
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(200);
    expect((await f.t.call("POST", `/api/automations/${id}/pause`, { key: f.key, body: {} })).status).toBe(200);
    expect((await f.t.call("POST", `/api/automations/${id}/resume`, { key: f.key, body: {} })).status).toBe(200);
    expect((await f.t.call("DELETE", `/api/automations/${id}`, { key: f.key })).status).toBe(204);
    const entries = await auditOf(id);
    expect(entries.map((e) => e.action)).toEqual([
      "automation.created",
      "automation.updated",
      "automation.paused",
      "automation.resumed",
      "automation.deleted",
    ]);
    expect(entries[1]).toMatchObject({
      before: { cron: "0 3 * * *", timezone: "Europe/Paris" },
      after: { cron: "0 4 * * *" },
    });
  });
});
