import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";
import type { TestApp } from "../helpers/test-app";
import {
  ADD_TOOL,
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
let testsetRevision: string;
let promptRevision: string;
let agentRevision: string;
let exactMatch: string;
const runIds: Record<string, string> = {};

beforeAll(async () => {
  model = await startScriptedModelServer();
  // Answers for a = 3, 7 and 11 are wrong: 17 of 20 match.
  model.respondWith(arithmeticModel((a) => [3, 7, 11].includes(a)));
  t = await evaluationApp(model);
  ({ key } = await t.newProject());
  worker = startWorker(t);
  testsetRevision = (
    await createEntity(t, key, "testsets", "testset", { slug: "additions", data: { testcases: ADDITIONS } })
  ).revision_id;
  promptRevision = (
    await createEntity(t, key, "applications", "application", {
      slug: "adder-prompt",
      data: {
        parameters: {
          prompt: {
            messages: [
              { role: "system", content: "You add." },
              { role: "user", content: "Add {{a}} and {{b}}. Reply with the number only." },
            ],
            llm_config: { model: "openai/gpt-5-mini", max_tokens: 50 },
          },
        },
      },
    })
  ).revision_id;
  agentRevision = (
    await createEntity(t, key, "workflows", "workflow", {
      slug: "adder-agent",
      data: {
        parameters: {
          agent: {
            llm: { provider: "openai", model: "gpt-5-mini" },
            tools: [ADD_TOOL],
            runner: { permissions: { default: "allow" } },
          },
        },
      },
    })
  ).revision_id;
  exactMatch = (
    await createEntity(t, key, "evaluators", "evaluator", {
      slug: "exact",
      data: { uri: "svc:builtin:auto_exact_match:v0", parameters: { correct_answer_key: "correct_answer" } },
    })
  ).revision_id;
});
afterAll(async () => {
  await worker.stop();
  await t.close();
  await model.close();
});

const create = (data: Record<string, unknown>, name = "eval") =>
  t.call("POST", "/api/simple/evaluations/", { key, body: { evaluation: { name, data } } });

describe("a simple evaluation runs a 20-case testset end to end", () => {
  it("through a prompt application: scored by exact match, with progress, results, metrics and traces", async () => {
    const res = await create({
      testset_steps: [testsetRevision],
      application_steps: [promptRevision],
      evaluator_steps: { [exactMatch]: "auto" },
      concurrency: { batch_size: 5 },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const created = res.body.evaluation;
    expect(created).toMatchObject({
      name: "eval",
      flags: {
        is_active: true,
        is_closed: false,
        has_testsets: true,
        has_evaluators: true,
        has_auto: true,
        has_human: false,
      },
      data: {
        status: "running",
        testset_steps: { [testsetRevision]: "custom" },
        application_steps: { [promptRevision]: "custom" },
        evaluator_steps: { [exactMatch]: "auto" },
        repeats: 1,
      },
    });
    // 20 input, 20 invocation, 20 evaluator cells.
    expect(created.progress.cells_total).toBe(60);

    const done = await settled(t, key, created.id);
    runIds.prompt = created.id;
    const failures = await t.call("POST", "/api/evaluations/results/query", {
      key,
      body: { result: { run_id: created.id, status: "failure" } },
    });
    expect(failures.body.results.map((r: any) => r.error)).toEqual([]);
    expect(done.data.status).toBe("success");
    expect(done.flags.is_active).toBe(false);
    expect(done.progress).toMatchObject({ cells_total: 60, cells_done: 60 });

    const results = await t.call("POST", "/api/evaluations/results/query", {
      key,
      body: { result: { run_id: created.id } },
    });
    expect(results.body.count).toBe(60);
    const scores = results.body.results.filter((r: any) => r.step_key.startsWith("evaluator-"));
    expect(scores.filter((r: any) => r.data.outputs.success).length).toBe(17);
    const invocations = results.body.results.filter((r: any) => r.step_key.startsWith("application-"));
    expect(invocations.every((r: any) => /^[0-9a-f]{32}$/.test(r.trace_id))).toBe(true);
    expect(new Set(invocations.map((r: any) => r.trace_id)).size).toBe(20);
    // The prompt was filled from the testcase: "Add 4 and 5."
    expect(invocations.map((r: any) => r.data.outputs).sort()).toContain("9");

    const metrics = await t.call("POST", "/api/evaluations/metrics/query", {
      key,
      body: { metrics: { run_id: created.id, scenario_ids: false } },
    });
    expect(metrics.body.count).toBe(1);
    const data = metrics.body.metrics[0].data;
    const evaluatorKey = Object.keys(data).find((k) => k.startsWith("evaluator-"))!;
    expect(data[evaluatorKey]["attributes.svc.data.outputs.success"]).toMatchObject({ count: 20, mean: 0.85 });
    const app = data[Object.keys(data).find((k) => k.startsWith("application-"))!];
    expect(app["attributes.svc.metrics.tokens.cumulative.total"]).toMatchObject({ count: 20, mean: 15 });
    expect(app["attributes.svc.metrics.duration.cumulative"].pcts.p90).toBeGreaterThan(0);
    expect(app.cells).toMatchObject({ count: 20, success: 20, success_rate: 1 });
  });

  it("through an agent with a tool, by the invoke path: the tool ran and its sum is the answer", async () => {
    const res = await create(
      {
        testset_steps: [testsetRevision],
        application_steps: [agentRevision],
        evaluator_steps: [exactMatch],
        concurrency: { batch_size: 10 },
      },
      "agent",
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const done = await settled(t, key, res.body.evaluation.id);
    runIds.agent = done.id;
    expect(done.data.status).toBe("success");
    const results = await t.call("POST", "/api/evaluations/results/query", {
      key,
      body: { result: { run_id: done.id } },
    });
    const invocations = results.body.results.filter((r: any) => r.step_key.startsWith("application-"));
    expect(invocations).toHaveLength(20);
    const messages = invocations[0].data.outputs;
    expect(messages.some((m: any) => m.role === "tool" && m.tool_name === "add")).toBe(true);
    const scores = results.body.results.filter((r: any) => r.step_key.startsWith("evaluator-"));
    // The agent answers with the tool's sum: every answer is right.
    expect(scores.every((r: any) => r.data.outputs.success === true)).toBe(true);
  });

  it("scores the agent's tool calls with the trajectory evaluator, from the calls the engine extracted", async () => {
    const trajectory = (
      await createEntity(t, key, "evaluators", "evaluator", {
        slug: "calls-add",
        data: { uri: "svc:builtin:trajectory_match:v0", parameters: { mode: "exact" } },
      })
    ).revision_id;
    const testcases = ADDITIONS.slice(0, 2).map((row, i) => ({
      ...row,
      expected_tool_calls: i === 0 ? ["add"] : ["multiply"],
    }));
    const res = await create(
      { testcases, application_steps: [agentRevision], evaluator_steps: [trajectory] },
      "trajectory",
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const done = await settled(t, key, res.body.evaluation.id);
    expect(done.data.status).toBe("success");
    const results = await t.call("POST", "/api/evaluations/results/query", {
      key,
      body: { result: { run_id: done.id } },
    });
    const scores = results.body.results
      .filter((r: any) => r.step_key.startsWith("evaluator-"))
      .map((r: any) => r.data.outputs.success);
    expect(scores.sort()).toEqual([false, true]);
  });

  it("compares the two runs: per testcase outputs, scores and deltas against the baseline; per run aggregates", async () => {
    const res = await t.call("POST", "/api/evaluations/runs/compare", {
      key,
      body: { run_ids: [runIds.prompt, runIds.agent] },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { comparison } = res.body;
    expect(comparison.baseline_run_id).toBe(runIds.prompt);
    expect(comparison.evaluators).toEqual(["exact"]);
    expect(comparison.runs.map((r: any) => r.scores.exact)).toEqual([0.85, 1]);
    expect(comparison.runs[1].deltas.exact).toBeCloseTo(0.15);
    expect(comparison.testcases).toHaveLength(20);
    const three = comparison.testcases.find((c: any) => c.inputs.a === 3);
    expect(three.runs[0]).toMatchObject({ outputs: "107", scores: { exact: 0 }, deltas: { exact: 0 } });
    expect(three.runs[1]).toMatchObject({ scores: { exact: 1 }, deltas: { exact: 1 } });
    expect(three.runs[1].trace_id).toMatch(/^[0-9a-f]{32}$/);
    expect(comparison.runs[0].metrics).toHaveProperty(Object.keys(comparison.runs[0].metrics)[0]);
    const one = await t.call("POST", "/api/evaluations/runs/compare", {
      key,
      body: { run_ids: [runIds.prompt, runIds.prompt] },
    });
    expect(one.status).toBe(400);
  });
});

describe("the reference SDK's local loop", () => {
  it("data.status running creates the run running and active, and leaves its execution to the client", async () => {
    const res = await create(
      {
        status: "running",
        testset_steps: [testsetRevision],
        application_steps: [promptRevision],
        evaluator_steps: { [exactMatch]: "auto" },
      },
      "sdk loop",
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const run = res.body.evaluation;
    expect(run).toMatchObject({ flags: { is_active: true, is_closed: false }, data: { status: "running" } });
    expect(run.progress.cells_total).toBe(0);
    const scenarios = () =>
      t.call("POST", "/api/evaluations/scenarios/query", { key, body: { scenario: { run_id: run.id } } });
    expect((await scenarios()).body.count).toBe(0);

    // The client writes what it ran; nothing of the service's own is added beside it.
    const added = await t.call("POST", "/api/evaluations/scenarios/", {
      key,
      body: { scenarios: [{ run_id: run.id, status: "success" }] },
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect((await scenarios()).body.scenarios.map((s: any) => s.id)).toEqual([added.body.scenarios[0].id]);
    const fetched = await t.call("GET", `/api/simple/evaluations/${run.id}`, { key });
    expect(fetched.body.evaluation.data.status).toBe("running");
  });
});
