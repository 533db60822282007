import { afterAll, beforeAll, describe, expect, it } from "vitest";
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

let t: TestApp;
let model: ScriptedModelServer;
let worker: { stop(): Promise<void> };
let key: string;
let userId: string;

beforeAll(async () => {
  model = await startScriptedModelServer();
  model.respondWith(arithmeticModel());
  t = await evaluationApp(model);
  ({ key, userId } = await t.newProject());
  worker = startWorker(t);
});
afterAll(async () => {
  await worker.stop();
  await t.close();
  await model.close();
});

const call = async (method: string, path: string, body?: unknown, status = 200) => {
  const res = await t.call(method, path, { key, body });
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(status);
  return res.body;
};

describe("human review", () => {
  it("a run with a human evaluator gets its default queue; a person's scores land as results beside the automatic ones and finish the run", async () => {
    const app = (
      await createEntity(t, key, "applications", "application", {
        slug: "adder",
        data: ADDER_PROMPT,
      })
    ).revision_id;
    const exact = (
      await createEntity(t, key, "evaluators", "evaluator", {
        slug: "exact",
        data: { uri: "svc:builtin:auto_exact_match:v0", parameters: {} },
      })
    ).revision_id;
    const review = (
      await createEntity(t, key, "evaluators", "evaluator", {
        slug: "review",
        data: { uri: "svc:custom:feedback:v0", parameters: {} },
      })
    ).revision_id;
    const { evaluation } = await call("POST", "/api/simple/evaluations/", {
      evaluation: {
        name: "reviewed",
        data: {
          testcases: ADDITIONS.slice(0, 4),
          application_steps: [app],
          evaluator_steps: { [exact]: "auto", [review]: "human" },
        },
      },
    });
    expect(evaluation.flags).toMatchObject({ has_human: true, has_auto: true, is_queue: true });
    // The machine's part is done; the people's part waits.
    const waiting = await settled(
      t,
      key,
      evaluation.id,
      (e) =>
        e.progress.steps[
          Object.keys(e.progress.steps).find((k) => k.startsWith("evaluator-") && e.progress.steps[k].pending)!
        ]?.pending === 4 && e.progress.cells_done === 12,
    );
    expect(waiting.data.status).toBe("running");

    const { queue } = await call("GET", `/api/evaluations/runs/${evaluation.id}/queues/default`);
    expect(queue).toMatchObject({ flags: { is_default: true }, status: "running" });
    const mine = await call("POST", `/api/evaluations/queues/${queue.id}/scenarios/query`, {
      queue: { user_id: userId },
    });
    expect(mine.count).toBe(4);

    const { run } = await call("GET", `/api/evaluations/runs/${evaluation.id}`);
    const humanStep = run.data.steps.find((s: any) => s.origin === "human").key;
    await call("POST", "/api/evaluations/results/", {
      results: mine.scenarios.map((s: any, i: number) => ({
        run_id: evaluation.id,
        scenario_id: s.id,
        step_key: humanStep,
        status: "success",
        data: { outputs: { score: i < 3 ? 1 : 0.5, success: i < 3 } },
      })),
    });
    const done = await settled(t, key, evaluation.id);
    expect(done.data.status).toBe("success");
    const metrics = (
      await call("POST", "/api/evaluations/metrics/query", { metrics: { run_id: evaluation.id, scenario_ids: false } })
    ).metrics[0].data;
    expect(metrics[humanStep]["attributes.svc.data.outputs.score"]).toMatchObject({
      count: 4,
      mean: 0.875,
      min: 0.5,
      max: 1,
    });
    expect(Object.keys(metrics).filter((k) => k.startsWith("evaluator-"))).toHaveLength(2);
  });

  it("the default queue policy: no filters (422), one per run (409), not demoted nor deleted (409); other queues filter and assign in sequence", async () => {
    const { runs } = await call("POST", "/api/evaluations/runs/", {
      runs: [
        {
          name: "q",
          data: {
            steps: [
              { key: "input", type: "input", references: {} },
              { key: "h", type: "annotation", origin: "human", references: {} },
            ],
          },
        },
        { name: "plain" },
      ],
    });
    expect(runs[0].flags.is_queue).toBe(true);
    expect(runs[1].flags.is_queue).toBe(false);
    const { queue: byDefault } = await call("GET", `/api/evaluations/runs/${runs[0].id}/queues/default`);
    expect(await call("GET", `/api/evaluations/runs/${runs[1].id}/queues/default`)).toEqual({ count: 0 });
    await call(
      "POST",
      "/api/evaluations/queues/",
      { queues: [{ run_id: runs[1].id, flags: { is_default: true }, data: { batch_size: 2 } }] },
      422,
    );
    await call(
      "POST",
      "/api/evaluations/queues/",
      { queues: [{ run_id: runs[0].id, flags: { is_default: true } }] },
      409,
    );
    await call("PATCH", `/api/evaluations/queues/${byDefault.id}`, { queue: { flags: { is_default: false } } }, 409);
    await call("DELETE", "/api/evaluations/queues/", { queue_ids: [byDefault.id] }, 409);

    const { scenarios } = await call("POST", "/api/evaluations/scenarios/", {
      scenarios: Array.from({ length: 4 }, () => ({ run_id: runs[0].id })),
    });
    const [u1, u2] = ["01a20dea-a7f9-75a3-82a6-6b784c4f3001", "01a20dea-a7f9-75a3-82a6-6b784c4f3002"];
    const { queues } = await call("POST", "/api/evaluations/queues/", {
      queues: [{ run_id: runs[0].id, name: "pair", data: { user_ids: [[u1, u2]], batch_size: 4 } }],
    });
    expect(queues[0].flags).toEqual({ is_default: false, is_sequential: true });
    const first = await call("POST", `/api/evaluations/queues/${queues[0].id}/scenarios/query`, {
      queue: { user_id: u1 },
    });
    const second = await call("POST", `/api/evaluations/queues/${queues[0].id}/scenarios/query`, {
      queue: { user_id: u2 },
    });
    expect(first.scenarios.map((s: any) => s.id)).toEqual(scenarios.slice(0, 2).map((s: any) => s.id));
    expect(second.scenarios.map((s: any) => s.id)).toEqual(scenarios.slice(2).map((s: any) => s.id));
    expect(
      (await call("POST", "/api/evaluations/queues/query", { queue: { user_id: u2 } })).queues.map((q: any) => q.id),
    ).toEqual([queues[0].id]);
    await call("POST", `/api/evaluations/queues/${queues[0].id}/scenarios/query`, { queue: { id: byDefault.id } }, 400);

    // Dropping the human step archives the default queue.
    const edited = await call("PATCH", `/api/evaluations/runs/${runs[0].id}`, {
      run: { data: { steps: [{ key: "input", type: "input", references: {} }] } },
    });
    expect(edited.run.flags).toMatchObject({ has_human: false, is_queue: false });
    expect(await call("GET", `/api/evaluations/runs/${runs[0].id}/queues/default`)).toEqual({ count: 0 });
    expect((await call("DELETE", `/api/evaluations/queues/${queues[0].id}`)).queue_id).toBe(queues[0].id);
  });
});
