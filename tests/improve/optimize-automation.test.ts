import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { automationPass, fireTest } from "@/server/automations";
import { improveOptimizations } from "@/server/db/schema";
import { drainEvents, emitEvent } from "@/server/events";
import { startOptimization, type Strategy } from "@/server/improve";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";
import type { TestApp } from "../helpers/test-app";
import { evaluationApp, startWorker } from "../evaluations/eval-fixtures";
import { drive, improveModel, seedProject, startBody, type Seeded } from "./optimize-fixtures";

// An automation whose firing starts an optimization instead of an agent run.

let t: TestApp;
let model: ScriptedModelServer;
let worker: { stop(): Promise<void> };
let key: string;
let projectId: string;
let userId: string;
let seeded: Seeded;

beforeAll(async () => {
  model = await startScriptedModelServer();
  model.respondWith(improveModel());
  t = await evaluationApp(model);
  ({ key, projectId, userId } = await t.newProject("optimize-automation"));
  worker = startWorker(t);
  seeded = await seedProject(t, key);
}, 120_000);
afterAll(async () => {
  await worker?.stop();
  await t?.close();
  await model?.close();
});

const schedule = (extra: Record<string, unknown>) => ({
  automation: { kind: "schedule", name: "weekly optimization", cron: "0 3 * * 1", ...extra },
});
const deliveries = async (automationId: string) =>
  (await t.call("GET", `/api/automations/${automationId}/deliveries`, { key })).body.deliveries as any[];

it("a scheduled firing starts the optimization as its run, which the worker finishes", async () => {
  const action = { kind: "optimize", body: startBody(seeded) };
  const created = await t.call("POST", "/api/automations/", { key, body: schedule({ action }) });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  expect(created.body.automation.action).toMatchObject({
    kind: "optimize",
    body: { base_revision_id: seeded.prompt.revision_id, seed: 7 },
  });
  expect(created.body.automation.references).toEqual({});

  const firing = await fireTest(t.context, projectId, created.body.automation.id);
  expect(firing.status).toBe("started");
  const [delivery] = await deliveries(created.body.automation.id);
  expect(delivery).toMatchObject({ status: "started", run_id: firing.runId });
  const started = await t.call("GET", `/api/improve/optimizations/${firing.runId}`, { key });
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  expect(started.body.optimization).toMatchObject({
    status: "queued",
    base_revision_id: seeded.prompt.revision_id,
    testset_revision_id: seeded.testset,
  });
  const [row] = await t.context.db
    .select()
    .from(improveOptimizations)
    .where(eq(improveOptimizations.id, firing.runId!));
  expect(row!.createdById).toBe(userId);

  // A dispatcher retrying after a crash names the same id: it finds the optimization, not a second one.
  const body = { ...startBody(seeded), strategies: ["reflective", "few_shot"] as Strategy[] };
  const again = await startOptimization(t.context.db, { projectId, userId }, body, t.context.now(), {
    id: firing.runId!,
  });
  expect(again.id).toBe(firing.runId);
  expect((await t.call("GET", "/api/improve/optimizations", { key })).body.count).toBe(1);

  const done = await drive(t, key, firing.runId!);
  expect(done.status, JSON.stringify(done)).toBe("succeeded");
  expect(done.result.winner.train_score).toBe(1);
}, 600_000);

it("a monitor's alert firing starts one", async () => {
  const created = await t.call("POST", "/api/automations/", {
    key,
    body: {
      automation: {
        kind: "event",
        name: "optimize on alert",
        event_types: ["monitors.alert.fired"],
        action: { kind: "optimize", body: startBody(seeded, { rounds: 1, seed: 11 }) },
      },
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  // The event the monitors' check pass writes when an alert fires, drained into the table before the pass.
  await emitEvent(t.context.db, {
    projectId,
    type: "monitors.alert.fired",
    attributes: {
      monitor_id: "01a20dea-a7f9-75a3-82a6-6b784c4f3799",
      alert_id: "01a20dea-a7f9-75a3-82a6-6b784c4f37aa",
    },
  });
  await drainEvents(t.context.db);
  for (let i = 0; i < 3; i++) await automationPass(t.context);
  const [delivery, ...more] = await deliveries(created.body.automation.id);
  expect(more).toEqual([]);
  expect(delivery).toMatchObject({
    status: "started",
    payload: { monitor_id: "01a20dea-a7f9-75a3-82a6-6b784c4f3799" },
  });
  const started = await t.call("GET", `/api/improve/optimizations/${delivery.run_id}`, { key });
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  expect(started.body.optimization).toMatchObject({ status: "queued", rounds: 1, seed: 11 });
});

it("refuses at create what the optimization API refuses, with the same answer", async () => {
  const unknown = "01a20dea-a7f9-75a3-82a6-6b784c4f3799";
  for (const body of [
    startBody(seeded, { testset_revision_id: unknown }),
    startBody(seeded, { base_revision_id: unknown }),
    startBody(seeded, { evaluator_revision_ids: [unknown] }),
    startBody(seeded, { model: undefined }),
  ]) {
    const api = await t.call("POST", "/api/improve/optimizations", { key, body });
    const automation = await t.call("POST", "/api/automations/", {
      key,
      body: schedule({ action: { kind: "optimize", body } }),
    });
    expect(api.status).toBeGreaterThanOrEqual(400);
    expect(api.status).toBeLessThan(500);
    expect(automation.status, JSON.stringify(automation.body)).toBe(api.status);
    expect(automation.body.code).toBe(api.body.code);
    expect(automation.body.detail ?? automation.body.message).toBe(api.body.detail ?? api.body.message);
  }
  // A body the schema refuses is refused as the API's body is, the path under the automation's action.
  const rounds = startBody(seeded, { rounds: 99 });
  const api = await t.call("POST", "/api/improve/optimizations", { key, body: rounds });
  const misshapen = await t.call("POST", "/api/automations/", {
    key,
    body: schedule({ action: { kind: "optimize", body: rounds } }),
  });
  expect([misshapen.status, misshapen.body.code]).toEqual([api.status, api.body.code]);
  expect(JSON.stringify(misshapen.body)).toContain("action.body.rounds");
  const unknownTestset = await t.call("POST", "/api/automations/", {
    key,
    body: schedule({ action: { kind: "optimize", body: startBody(seeded, { testset_revision_id: unknown }) } }),
  });
  expect(unknownTestset.status).toBe(404);
  expect(JSON.stringify(unknownTestset.body)).toContain(unknown);

  const both = await t.call("POST", "/api/automations/", {
    key,
    body: schedule({
      action: { kind: "optimize", body: startBody(seeded) },
      input: { messages: [{ role: "user", content: "hi" }] },
    }),
  });
  expect(both.status).toBe(400);
  expect(both.body.code).toBe("ambiguous_target");
});
