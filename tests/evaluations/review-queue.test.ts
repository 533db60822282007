import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContextFrom } from "@/server/trpc/init";
import { createCaller } from "@/server/trpc/root";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";
import type { TestApp } from "../helpers/test-app";
import {
  ADDER_PROMPT,
  ADDITIONS,
  arithmeticModel,
  createEntity,
  evaluationApp,
  startWorker,
  settled,
} from "./eval-fixtures";

/** The review page's procedures over the engine's queues: a person's share, their annotations, the run finishing. */
let t: TestApp;
let model: ScriptedModelServer;
let worker: { stop(): Promise<void> };
let key: string;
let userId: string;
let projectId: string;
const callerFor = (user: string, role: "owner" | "member" | "viewer" = "member") =>
  createCaller(createContextFrom(t.context, { principal: { projectId, userId: user, role } }));

beforeAll(async () => {
  model = await startScriptedModelServer();
  model.respondWith(arithmeticModel());
  t = await evaluationApp(model);
  ({ key, userId, projectId } = await t.newProject());
  worker = startWorker(t);
});
afterAll(async () => {
  await worker.stop();
  await t.close();
  await model.close();
});

async function humanRun(evaluatorData: Record<string, unknown>, slug: string) {
  const app = await createEntity(t, key, "applications", "application", {
    slug: `adder-${slug}`,
    data: ADDER_PROMPT,
  });
  const exact = await createEntity(t, key, "evaluators", "evaluator", {
    slug: `exact-${slug}`,
    data: { uri: "svc:builtin:auto_exact_match:v0", parameters: {} },
  });
  const review = await createEntity(t, key, "evaluators", "evaluator", { slug, data: evaluatorData });
  const res = await t.call("POST", "/api/simple/evaluations/", {
    key,
    body: {
      evaluation: {
        name: `review ${slug}`,
        data: {
          testcases: ADDITIONS.slice(0, 3),
          application_steps: [app.revision_id],
          evaluator_steps: { [exact.revision_id]: "auto", [review.revision_id]: "human" },
        },
      },
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const id = res.body.evaluation.id as string;
  await settled(t, key, id, (e) => e.progress.cells_done === 9);
  return id;
}

describe("review procedures", () => {
  it("lists the queue, shows each scenario with its output and automatic scores, and a person's 1–5 scores finish the run", async () => {
    const runId = await humanRun({ uri: "svc:custom:feedback:v0", parameters: {} }, "helpfulness");
    const me = callerFor(userId);
    const queues = await me.review.queues();
    const queue = queues.find((q) => q.runId === runId)!;
    expect(queue).toMatchObject({ name: "review helpfulness", total: 3, done: 0, runStatus: "running" });

    const { steps, items } = await me.review.items({ queueId: queue.id });
    expect(steps).toEqual([{ key: expect.stringMatching(/^evaluator-/), name: "helpfulness", scale: "score" }]);
    expect(items).toHaveLength(3);
    expect(items[0]).toMatchObject({
      inputs: expect.objectContaining({ a: expect.any(Number) }),
      outputStatus: "success",
      scores: [{ name: "exact-helpfulness", score: 1 }],
      annotations: {},
    });
    expect(JSON.stringify(items[0].output)).toContain(
      String(items[0].inputs && (items[0].inputs as { correct_answer: string }).correct_answer),
    );

    await expect(
      callerFor(userId, "viewer").review.annotate({
        queueId: queue.id,
        scenarioId: items[0].scenarioId,
        stepKey: steps[0].key,
        score: 4,
      }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(
      me.review.annotate({ queueId: queue.id, scenarioId: items[0].scenarioId, stepKey: steps[0].key, score: 6 }),
    ).rejects.toMatchObject({ code: "UNPROCESSABLE_CONTENT" });
    await expect(
      me.review.annotate({ queueId: queue.id, scenarioId: items[0].scenarioId, stepKey: "evaluator-nope", score: 3 }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST" });

    for (const [i, item] of items.entries())
      await me.review.annotate({
        queueId: queue.id,
        scenarioId: item.scenarioId,
        stepKey: steps[0].key,
        score: i + 3,
        comment: i === 0 ? "  clear and short  " : undefined,
      });
    const after = await me.review.items({ queueId: queue.id });
    expect(after.items[0].annotations[steps[0].key]).toEqual({ score: 3, comment: "clear and short", by: userId });
    expect((await me.review.queues()).find((q) => q.id === queue.id)).toMatchObject({ done: 3, total: 3 });

    const done = await settled(t, key, runId);
    expect(done.data.status).toBe("success");
    const metrics = (
      await t.call("POST", "/api/evaluations/metrics/query", {
        key,
        body: { metrics: { run_id: runId, scenario_ids: false } },
      })
    ).body.metrics[0].data;
    expect(metrics[steps[0].key]["attributes.svc.data.outputs.score"]).toMatchObject({ count: 3, mean: 4 });
  });

  it("a pass / fail evaluator asks for a verdict; a queue assigned to others is not yours", async () => {
    const runId = await humanRun(
      {
        uri: "svc:custom:feedback:v0",
        parameters: {},
        schemas: { outputs: { type: "object", properties: { success: { type: "boolean" } } } },
      },
      "correctness",
    );
    const me = callerFor(userId);
    const queue = (await me.review.queues()).find((q) => q.runId === runId)!;
    const { steps, items } = await me.review.items({ queueId: queue.id });
    expect(steps[0].scale).toBe("pass_fail");
    await me.review.annotate({
      queueId: queue.id,
      scenarioId: items[0].scenarioId,
      stepKey: steps[0].key,
      success: false,
    });
    expect((await me.review.items({ queueId: queue.id })).items[0].annotations[steps[0].key]).toMatchObject({
      success: false,
    });

    const someoneElse = randomUUID();
    const assigned = await t.call("POST", "/api/evaluations/queues/", {
      key,
      body: { queues: [{ run_id: runId, name: "theirs", data: { user_ids: [[someoneElse]] } }] },
    });
    expect(assigned.status).toBe(200);
    const theirs = assigned.body.queues[0].id;
    expect((await me.review.queues()).map((q) => q.id)).not.toContain(theirs);
    await expect(me.review.items({ queueId: theirs })).rejects.toMatchObject({ code: "NOT_FOUND" });
    const them = callerFor(someoneElse);
    expect((await them.review.queues()).find((q) => q.id === theirs)).toMatchObject({ total: 3 });
    await expect(
      them.review.annotate({ queueId: theirs, scenarioId: randomUUID(), stepKey: steps[0].key, success: true }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining("not in your share") });
  });
});
