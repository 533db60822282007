import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/test-app";
import { createEntity, startWorker, settled } from "./eval-fixtures";

// The reference creates a run over any application and evaluator; its flow tests run
// `agenta:custom:mock:v0` as both, and clients probe and edit runs whose application nothing
// can invoke. Here such a run is created, and a cell that must invoke what cannot be invoked
// fails with the reason.
let t: TestApp;
let worker: { stop(): Promise<void> };
let key: string;
let testset: string;

beforeAll(async () => {
  t = await createTestApp();
  ({ key } = await t.newProject());
  worker = startWorker(t);
  testset = (
    await createEntity(t, key, "testsets", "testset", {
      slug: "rows",
      data: {
        testcases: [
          { country: "France", correct_answer: "Paris" },
          { country: "Peru", correct_answer: "Lima" },
        ],
      },
    })
  ).revision_id;
});
afterAll(async () => {
  await worker.stop();
  await t.close();
});

const create = (data: Record<string, unknown>) =>
  t.call("POST", "/api/simple/evaluations/", { key, body: { evaluation: { name: "e", data } } });

async function cellsOf(runId: string) {
  const res = await t.call("POST", "/api/evaluations/results/query", { key, body: { result: { run_id: runId } } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.results as {
    step_key: string;
    status: string;
    error?: { code: string; message: string };
    data?: any;
  }[];
}

describe("evaluations over applications the service does not invoke", () => {
  it("runs agenta:custom:mock:v0 as the application (echo) and as the evaluator (reflect scores the app's own output)", async () => {
    const app = await createEntity(t, key, "applications", "application", {
      slug: "mock-app",
      data: { uri: "agenta:custom:mock:v0", parameters: { key: "echo" } },
    });
    const evaluator = await createEntity(t, key, "evaluators", "evaluator", {
      slug: "mock-reflect",
      data: { uri: "agenta:custom:mock:v0", parameters: { key: "reflect" } },
    });
    const res = await create({
      testset_steps: [testset],
      application_steps: [app.revision_id],
      evaluator_steps: { [evaluator.revision_id]: "auto" },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const done = await settled(t, key, res.body.evaluation.id);
    expect(done.data.status).toBe("success");
    const cells = await cellsOf(done.id);
    const invocations = cells.filter((c) => c.step_key.startsWith("application-"));
    expect(invocations.map((c) => c.data.outputs.country).sort()).toEqual(["France", "Peru"]);
    const scores = cells.filter((c) => c.step_key.startsWith("evaluator-")).map((c) => c.data.outputs);
    expect(scores).toEqual([
      { score: 1, success: true },
      { score: 1, success: true },
    ]);
  });

  it("creates the run over an application without prompt or agent; its invocation cells fail with not_invocable", async () => {
    const app = await createEntity(t, key, "applications", "application", {
      slug: "chat-app",
      data: { uri: "agenta:builtin:chat:v0", parameters: { temperature: 0 } },
    });
    const res = await create({ testset_steps: [testset], application_steps: [app.revision_id] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const done = await settled(t, key, res.body.evaluation.id);
    expect(done.data.status).not.toBe("success");
    const invocations = (await cellsOf(done.id)).filter((c) => c.step_key.startsWith("application-"));
    expect(invocations).toHaveLength(2);
    for (const cell of invocations) {
      expect(cell.status).toBe("failure");
      expect(cell.error?.code).toBe("not_invocable");
      expect(cell.error?.message).toContain("agenta:builtin:chat:v0");
    }
  });

  it("a run over an application without data takes the slice operations clients send, never invoking it", async () => {
    const app = await createEntity(t, key, "applications", "application", { slug: "empty-app", data: {} });
    const res = await create({ testset_steps: [testset], application_steps: [app.revision_id], repeats: 1 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const id = res.body.evaluation.id;
    await settled(t, key, id);
    const call = async (path: string, body: unknown, status = 200) => {
      const r = await t.call("POST", `/api/simple/evaluations/${id}/${path}`, { key, body });
      expect(r.status, `${path}: ${JSON.stringify(r.body)}`).toBe(status);
      return r.body;
    };
    const probed = (await call("probe", {})).results.filter((r: { step_key: string }) =>
      r.step_key.startsWith("application-"),
    );
    expect(probed.map((r: { error?: { code: string } }) => r.error?.code)).toEqual(["not_invocable", "not_invocable"]);
    await call("process", { overwrite: true }, 202);
    const again = await settled(t, key, id);
    expect(again.data.status).not.toBe("success");
    const added = await call("scenarios/add", { count: 1 });
    expect(added.scenarios).toHaveLength(1);
    await call("prune", { scenario_ids: [added.scenarios[0].id] }, 204);
    expect((await call("repeats/set", { repeats: 2 })).run.data.repeats).toBe(2);
    for (const cell of (await cellsOf(id)).filter((c) => c.step_key.startsWith("application-")))
      expect(cell.error?.code).toBe("not_invocable");
  });

  it("still refuses a revision that does not exist (400 naming it)", async () => {
    const res = await create({ testset_steps: [testset], application_steps: ["01900000-0000-7000-8000-000000000000"] });
    expect(res.status).toBe(400);
    expect(res.body.detail).toContain("01900000-0000-7000-8000-000000000000");
  });
});

describe("an evaluator defined only by its output schemas", () => {
  const schemas = {
    outputs: { type: "object", properties: { approved: { type: "boolean" } }, required: ["approved"] },
  };

  it("is a human evaluator: the run is created and its cells wait for people", async () => {
    const evaluator = await createEntity(t, key, "evaluators", "evaluator", { slug: "review", data: { schemas } });
    const res = await create({ testset_steps: [testset], evaluator_steps: { [evaluator.revision_id]: "human" } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const cells = await cellsOf(res.body.evaluation.id);
    const human = cells.filter((c) => c.step_key.startsWith("evaluator-"));
    expect(human.map((c) => c.status)).toEqual(["pending", "pending"]);
  });

  it("as a custom evaluator the run is created, and a cell the server would run fails with the reason", async () => {
    const evaluator = await createEntity(t, key, "evaluators", "evaluator", {
      slug: "custom-review",
      data: { schemas },
    });
    const res = await create({ testset_steps: [testset], evaluator_steps: { [evaluator.revision_id]: "custom" } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const done = await settled(t, key, res.body.evaluation.id);
    const cells = (await cellsOf(done.id)).filter((c) => c.step_key.startsWith("evaluator-"));
    expect(cells.map((c) => c.error?.code)).toEqual(["no_evaluator_uri", "no_evaluator_uri"]);
    expect(cells[0].error?.message).toContain("human");
  });
});
