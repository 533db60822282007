import { afterAll, beforeAll, expect, it } from "vitest";
import { fireTest } from "@/server/automations";
import { triagePass } from "@/server/improve";
import { createTestApp, type TestApp } from "../helpers/test-app";

// An automation whose firing starts a triage instead of an agent run.

let t: TestApp;
let key: string;
let projectId: string;

beforeAll(async () => {
  t = await createTestApp();
  ({ key, projectId } = await t.newProject("triage-automation"));
});
afterAll(async () => {
  await t?.close();
});

const schedule = (extra: Record<string, unknown>) => ({
  automation: { kind: "schedule", name: "nightly triage", cron: "0 3 * * *", ...extra },
});

it("a firing starts the triage, once, as its run", async () => {
  const action = { kind: "triage", body: { evidence: { kind: "traces", filter: { conditions: [] } } } };
  const created = await t.call("POST", "/api/automations/", { key, body: schedule({ action }) });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  expect(created.body.automation.action).toMatchObject({ kind: "triage", body: { evidence: { kind: "traces" } } });
  expect(created.body.automation.references).toEqual({});

  const firing = await fireTest(t.context, projectId, created.body.automation.id);
  expect(firing.status).toBe("started");
  const triage = await t.call("GET", `/api/improve/triages/${firing.runId}`, { key });
  expect(triage.status).toBe(200);
  expect(triage.body.triage).toMatchObject({ status: "queued", method: "heuristic", evidence: { kind: "traces" } });
  await triagePass(t.context, 10);
  const done = await t.call("GET", `/api/improve/triages/${firing.runId}`, { key });
  expect(done.body.triage.status).toBe("succeeded");
  expect((await t.call("GET", "/api/improve/triages", { key })).body.count).toBe(1);
});

it("refuses a triage action beside an agent, and a triage of an unknown monitor", async () => {
  const both = await t.call("POST", "/api/automations/", {
    key,
    body: schedule({
      action: { kind: "triage", body: { evidence: { kind: "traces" } } },
      input: { messages: [{ role: "user", content: "hi" }] },
    }),
  });
  expect(both.status).toBe(400);
  expect(both.body.code).toBe("ambiguous_target");
  const unknown = await t.call("POST", "/api/automations/", {
    key,
    body: schedule({
      action: {
        kind: "triage",
        body: { evidence: { kind: "monitor_alert", monitor_id: "01a20dea-a7f9-75a3-82a6-6b784c4f3799" } },
      },
    }),
  });
  expect(unknown.status).toBe(404);
  expect(unknown.body.code).toBe("monitor_not_found");
});
