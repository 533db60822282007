import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withMetricKeyAliases } from "@/server/evaluations/model/metric-key-aliases";
import { createTestApp, type TestApp } from "../helpers/test-app";
import { createEntity, startWorker, settled } from "./eval-fixtures";

// The reference's metrics-flow test, as its client reads it: two testcases, its mock application
// (echo) and a mock evaluator scoring 0.7; the run's metrics under `attributes.ag.data.outputs.score`
// (the reference's key), and under `attributes.svc.*` (this service's key, which its own clients read).
let t: TestApp;
let worker: { stop(): Promise<void> };
let key: string;

beforeAll(async () => {
  t = await createTestApp();
  ({ key } = await t.newProject());
  worker = startWorker(t);
});
afterAll(async () => {
  await worker.stop();
  await t.close();
});

async function metricsOf(runId: string, scenarios: boolean) {
  const res = await t.call("POST", "/api/evaluations/metrics/query", {
    key,
    body: { metrics: { run_id: runId, scenario_ids: scenarios } },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.metrics as { data: Record<string, Record<string, any>> }[];
}

describe("evaluation metric keys", () => {
  it("answers a run's metrics under the reference's attributes.ag.* keys and the service's attributes.svc.* keys", async () => {
    const testset = await createEntity(t, key, "testsets", "testset", {
      slug: "two-rows",
      data: { testcases: [{ country: "France" }, { country: "Peru" }] },
    });
    const app = await createEntity(t, key, "applications", "application", {
      slug: "echo-app",
      data: { uri: "agenta:custom:mock:v0", parameters: { key: "echo" } },
    });
    const evaluator = await createEntity(t, key, "evaluators", "evaluator", {
      slug: "seven-tenths",
      data: { uri: "agenta:custom:mock:v0", parameters: { key: "score", kwargs: { score: 0.7 } } },
    });
    const created = await t.call("POST", "/api/simple/evaluations/", {
      key,
      body: {
        evaluation: {
          name: "metrics flow",
          data: {
            testset_steps: [testset.revision_id],
            application_steps: [app.revision_id],
            evaluator_steps: { [evaluator.revision_id]: "auto" },
          },
        },
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const runId = created.body.evaluation.id;
    expect((await settled(t, key, runId)).data.status).toBe("success");

    const refreshed = await t.call("POST", "/api/evaluations/metrics/refresh", {
      key,
      body: { metrics: { run_id: runId } },
    });
    expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
    expect(refreshed.body.count).toBeGreaterThanOrEqual(1);

    const [global] = await metricsOf(runId, false);
    const step = Object.keys(global.data).find((k) => "attributes.ag.data.outputs.score" in global.data[k])!;
    expect(step).toBeDefined();
    const score = global.data[step]["attributes.ag.data.outputs.score"];
    expect(score).toMatchObject({ count: 2, mean: 0.7, min: 0.7, max: 0.7 });
    expect(global.data[step]["attributes.svc.data.outputs.score"]).toEqual(score);
    const appStep = Object.keys(global.data).find((k) => k.startsWith("application-"))!;
    expect(global.data[appStep]["attributes.ag.metrics.duration.cumulative"]).toMatchObject({ count: 2 });
    expect(global.data[appStep]["attributes.svc.metrics.duration.cumulative"]).toMatchObject({ count: 2 });

    const perScenario = await metricsOf(runId, true);
    expect(perScenario).toHaveLength(2);
    for (const m of perScenario) expect(m.data[step]["attributes.ag.data.outputs.score"].mean).toBe(0.7);
  });

  it("gives metrics a client wrote under either spelling the other one too, and keeps a key sent under both", async () => {
    const run = await t.call("POST", "/api/evaluations/runs/", { key, body: { runs: [{ name: "written" }] } });
    expect(run.status, JSON.stringify(run.body)).toBe(200);
    const runId = run.body.runs[0].id;
    const written = await t.call("POST", "/api/evaluations/metrics/", {
      key,
      body: {
        metrics: [
          {
            run_id: runId,
            data: {
              judge: { "attributes.ag.data.outputs.score": { mean: 0.5 }, custom: 1 },
              app: {
                "attributes.svc.metrics.costs.cumulative.total": { sum: 2 },
                "attributes.ag.metrics.costs.cumulative.total": { sum: 3 },
              },
            },
          },
        ],
      },
    });
    expect(written.status, JSON.stringify(written.body)).toBe(200);
    expect(written.body.metrics[0].data).toEqual({
      judge: {
        "attributes.ag.data.outputs.score": { mean: 0.5 },
        "attributes.svc.data.outputs.score": { mean: 0.5 },
        custom: 1,
      },
      app: {
        "attributes.svc.metrics.costs.cumulative.total": { sum: 2 },
        "attributes.ag.metrics.costs.cumulative.total": { sum: 3 },
      },
    });
    const [read] = await metricsOf(runId, false);
    expect(read.data.judge["attributes.svc.data.outputs.score"]).toEqual({ mean: 0.5 });
  });

  it("leaves values that are not a step's metrics map as they are", () => {
    expect(withMetricKeyAliases({ note: "text", list: [1] })).toEqual({ note: "text", list: [1] });
    expect(withMetricKeyAliases(null)).toBeNull();
  });
});
