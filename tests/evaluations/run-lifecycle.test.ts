import { and, asc, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { events } from "@/server/db/schema";
import { startScriptedModelServer, type Script, type ScriptedModelServer } from "../helpers/scripted-model-server";
import type { TestApp } from "../helpers/test-app";
import {
  ADDER_PROMPT,
  ADDITIONS,
  ADD_TOOL,
  arithmeticModel,
  createEntity,
  evaluationApp,
  settled,
  startWorker,
} from "./eval-fixtures";
import { within } from "../helpers/within";

let t: TestApp;
let model: ScriptedModelServer;
let worker: { stop(): Promise<void> };
let key: string;
let projectId: string;
let prompt: string;
let agent: string;
let exact: string;
let badRegex: string;

beforeAll(async () => {
  model = await startScriptedModelServer();
  model.respondWith(arithmeticModel());
  t = await evaluationApp(model);
  ({ key, projectId } = await t.newProject());
  worker = startWorker(t);
  prompt = (
    await createEntity(t, key, "applications", "application", {
      slug: "adder",
      data: ADDER_PROMPT,
    })
  ).revision_id;
  agent = (
    await createEntity(t, key, "workflows", "workflow", {
      slug: "chat-agent",
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
  exact = (
    await createEntity(t, key, "evaluators", "evaluator", {
      slug: "exact",
      data: { uri: "svc:builtin:auto_exact_match:v0", parameters: {} },
    })
  ).revision_id;
  badRegex = (
    await createEntity(t, key, "evaluators", "evaluator", {
      slug: "no-column",
      data: { uri: "svc:builtin:auto_exact_match:v0", parameters: { correct_answer_key: "expected_sum" } },
    })
  ).revision_id;
});
afterAll(async () => {
  await worker.stop();
  await t.close();
  await model.close();
});

const create = async (data: Record<string, unknown>) => {
  const res = await t.call("POST", "/api/simple/evaluations/", {
    key,
    body: { evaluation: { name: "lifecycle", data } },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.evaluation;
};
const cells = async (runId: string, filter: Record<string, unknown> = {}) =>
  (await t.call("POST", "/api/evaluations/results/query", { key, body: { result: { run_id: runId, ...filter } } })).body
    .results as any[];
const eventsOf = async (runId: string) =>
  (
    await t.context.db
      .select()
      .from(events)
      .where(and(eq(events.projectId, projectId), like(events.eventType, "evaluations.runs.%")))
      .orderBy(asc(events.timestamp), asc(events.id))
  )
    .filter((e) => e.attributes.run_id === runId)
    .map((e) => e.eventType);

describe("running, stopping and guarding an evaluation", () => {
  it("stop aborts the in-flight model calls; start resumes and finishes every cell", async () => {
    model.respondWith(() => ({ kind: "hang" }));
    const before = model.requests.length;
    const evaluation = await create({
      testcases: ADDITIONS.slice(0, 4),
      application_steps: [prompt],
      evaluator_steps: [exact],
      concurrency: { batch_size: 2 },
    });
    // Two cells (the batch) are running once their two model calls have arrived.
    await within(10_000, "the batch's two model calls", model.requestsReceived(before + 2));
    const running = (await t.call("GET", `/api/simple/evaluations/${evaluation.id}`, { key })).body.evaluation;
    expect(Object.values(running.progress.steps).some((s: any) => s.running === 2)).toBe(true);
    const stopped = await t.call("POST", `/api/simple/evaluations/${evaluation.id}/stop`, { key });
    expect(stopped.body.evaluation).toMatchObject({ flags: { is_active: false }, data: { status: "cancelled" } });
    // The model never answers: only the abort can end the two running cells; they go back to the queue.
    await settled(t, key, evaluation.id, (e) => !Object.values(e.progress.steps).some((s: any) => s.running), {
      ms: 5_000,
    });
    expect(
      (await cells(evaluation.id, { status: "success" })).filter((c) => c.step_key.startsWith("application-")),
    ).toHaveLength(0);

    model.respondWith(arithmeticModel());
    expect(
      (await t.call("POST", `/api/simple/evaluations/${evaluation.id}/start`, { key })).body.evaluation.data.status,
    ).toBe("running");
    const done = await settled(t, key, evaluation.id);
    expect(done).toMatchObject({ data: { status: "success" }, progress: { cells_total: 12, cells_done: 12 } });
    expect(await eventsOf(evaluation.id)).toEqual([
      "evaluations.runs.started",
      "evaluations.runs.started",
      "evaluations.runs.finished",
    ]);
  });

  it("retries a cell on provider 5xx with backoff, and records a 4xx or a failing evaluator as an error cell with its message", async () => {
    let calls = 0;
    const flaky = arithmeticModel();
    model.respondWith((request): Script =>
      ++calls <= 2 ? { kind: "status", status: 503, message: "overloaded" } : flaky(request),
    );
    const retried = await create({
      testcases: ADDITIONS.slice(0, 1),
      application_steps: [prompt],
      evaluator_steps: [exact],
      concurrency: { max_retries: 3, retry_delay: 0.01 },
    });
    expect((await settled(t, key, retried.id)).data.status).toBe("success");
    const invocation = (await cells(retried.id)).find((c) => c.step_key.startsWith("application-"));
    expect(invocation).toMatchObject({ status: "success", data: { outputs: "1", attempts: 3 } });

    model.respondWith(() => ({ kind: "status", status: 400, message: "bad request" }));
    const failed = await create({
      testcases: ADDITIONS.slice(0, 2),
      application_steps: [prompt],
      evaluator_steps: [exact],
      concurrency: { max_retries: 3, retry_delay: 0.01 },
    });
    expect((await settled(t, key, failed.id)).data.status).toBe("errors");
    const failures = await cells(failed.id, { status: "failure" });
    expect(failures).toHaveLength(4);
    expect(failures.find((c) => c.step_key.startsWith("application-"))).toMatchObject({
      error: { code: "invocation_failed", message: expect.stringContaining("bad request") },
      data: { attempts: 1 },
    });
    expect(failures.find((c) => c.step_key.startsWith("evaluator-")).error.message).toContain("application step");

    model.respondWith(arithmeticModel());
    const badEvaluator = await create({
      testcases: ADDITIONS.slice(0, 2),
      application_steps: [prompt],
      evaluator_steps: [badRegex],
    });
    expect((await settled(t, key, badEvaluator.id)).data.status).toBe("errors");
    const [evaluatorError] = await cells(badEvaluator.id, { status: "failure" });
    expect(evaluatorError.error.message).toMatch(/no column "expected_sum"/);
  });

  it("repeats: the application runs once per testcase, each repeat's evaluator scores it; is_split runs it per repeat", async () => {
    model.respondWith(arithmeticModel());
    const shared = await create({
      testcases: ADDITIONS.slice(0, 3),
      application_steps: [prompt],
      evaluator_steps: [exact],
      repeats: 3,
    });
    const done = await settled(t, key, shared.id);
    // A fetch and a list count the inline testcases in the database (the run's outline).
    expect(done.data).toMatchObject({ status: "success", repeats: 3, testcases: 3 });
    expect(done.data).not.toHaveProperty("traces");
    const listed = await t.call("POST", "/api/simple/evaluations/query", {
      key,
      body: { evaluation: { ids: [shared.id] } },
    });
    expect(listed.body.evaluations.map((e: any) => e.data.testcases)).toEqual([3]);
    const steps = Object.entries(done.progress.steps).map(([k, v]: [string, any]) => [k.split("-")[0], v.success]);
    expect(Object.fromEntries(steps)).toEqual({ testcases: 9, application: 3, evaluator: 9 });
    const split = await t.call("POST", "/api/simple/evaluations/", {
      key,
      body: {
        evaluation: {
          flags: { is_split: true },
          data: { testcases: ADDITIONS.slice(0, 3), application_steps: [prompt], evaluator_steps: [exact], repeats: 2 },
        },
      },
    });
    const splitDone = await settled(t, key, split.body.evaluation.id);
    expect(Object.entries(splitDone.progress.steps).find(([k]) => k.startsWith("application-"))![1]).toEqual({
      success: 6,
    });
  });

  it("a run past its time budget fails: its open cells fail with the reason, and evaluations.runs.failed is written", async () => {
    model.respondWith(() => ({ kind: "hang" }));
    const slow = await create({
      testcases: ADDITIONS.slice(0, 2),
      application_steps: [prompt],
      evaluator_steps: [exact],
      concurrency: { timeout: 0.3 },
    });
    const done = await settled(t, key, slow.id);
    expect(done.data.status).toBe("failure");
    const failures = await cells(slow.id, { status: "failure" });
    expect(failures).toHaveLength(4);
    expect(failures[0].error).toMatchObject({ code: "time_budget_exceeded" });
    expect(await eventsOf(slow.id)).toEqual(["evaluations.runs.started", "evaluations.runs.failed"]);
    model.respondWith(arithmeticModel());
  });

  it("the closed-run guard: a closed run takes no edit, scenario or result (409) until opened", async () => {
    const evaluation = await create({
      testcases: ADDITIONS.slice(0, 1),
      application_steps: [prompt],
      evaluator_steps: [exact],
    });
    await settled(t, key, evaluation.id);
    const [scenario] = (
      await t.call("POST", "/api/evaluations/scenarios/query", { key, body: { scenario: { run_id: evaluation.id } } })
    ).body.scenarios;
    expect(
      (await t.call("POST", `/api/evaluations/runs/${evaluation.id}/close`, { key })).body.run.flags.is_closed,
    ).toBe(true);
    const patch = await t.call("PATCH", `/api/evaluations/runs/${evaluation.id}`, {
      key,
      body: { run: { name: "renamed" } },
    });
    expect(patch.status).toBe(409);
    // The reference's closed-run body: detail {message, run_id}.
    expect(patch.body).toMatchObject({
      code: "evaluation_closed",
      run_id: evaluation.id,
      detail: { message: expect.stringContaining("Cannot modify a closed evaluation"), run_id: evaluation.id },
    });
    expect(
      (await t.call("POST", "/api/evaluations/scenarios/", { key, body: { scenarios: [{ run_id: evaluation.id }] } }))
        .status,
    ).toBe(409);
    expect(
      (
        await t.call("POST", "/api/evaluations/results/", {
          key,
          body: { results: [{ run_id: evaluation.id, scenario_id: scenario.id, step_key: "x" }] },
        })
      ).status,
    ).toBe(409);
    expect((await t.call("POST", `/api/simple/evaluations/${evaluation.id}/start`, { key })).status).toBe(409);
    await t.call("POST", `/api/simple/evaluations/${evaluation.id}/open`, { key });
    expect(
      (await t.call("PATCH", `/api/evaluations/runs/${evaluation.id}`, { key, body: { run: { name: "renamed" } } }))
        .body.run.name,
    ).toBe("renamed");
  });

  it("bad input is a 4xx naming the problem, never a silent count 0", async () => {
    const missing = await t.call("POST", "/api/simple/evaluations/", {
      key,
      body: {
        evaluation: { data: { testset_steps: ["01a20dea-a7f9-75a3-82a6-6b784c4f370f"], application_steps: [prompt] } },
      },
    });
    expect(missing.status).toBe(400);
    expect(missing.body.detail).toContain("01a20dea-a7f9-75a3-82a6-6b784c4f370f");
    const noRows = await t.call("POST", "/api/simple/evaluations/", {
      key,
      body: { evaluation: { data: { application_steps: [prompt] } } },
    });
    expect(noRows.status).toBe(400);
    const notAnApp = await t.call("POST", "/api/simple/evaluations/", {
      key,
      body: { evaluation: { data: { testcases: [{ a: 1 }], application_steps: [exact] } } },
    });
    expect(notAnApp.status).toBe(400);
    expect((await t.call("GET", "/api/simple/evaluations/01a20dea-a7f9-75a3-82a6-6b784c4f370f", { key })).body).toEqual(
      { count: 0 },
    );
  });

  it("multi-turn testcases: each turn sees the agent's own earlier replies; the output keeps every turn", async () => {
    model.respondWith(arithmeticModel());
    const evaluation = await create({
      testcases: [
        {
          turns: [
            { input: "What is 2 + 3?", expected: "5" },
            { input: "And 10 + 20?", expected: "30" },
          ],
        },
      ],
      application_steps: [agent],
    });
    expect((await settled(t, key, evaluation.id)).data.status).toBe("success");
    const [invocation] = (await cells(evaluation.id)).filter((c) => c.step_key.startsWith("application-"));
    expect(invocation.data.outputs.turns.map((turn: any) => [turn.reply, turn.expected])).toEqual([
      ["5", "5"],
      ["30", "30"],
    ]);
    expect(invocation.data.outputs.messages.filter((m: any) => m.tool_name === "add")).toHaveLength(2);
  });

  it("approvals under the unattended policy: a tool call that would ask is refused, the model is told, the cell completes", async () => {
    const guarded = (
      await createEntity(t, key, "workflows", "workflow", {
        slug: "asks-first",
        data: {
          parameters: {
            agent: {
              llm: { provider: "openai", model: "gpt-5-mini" },
              tools: [ADD_TOOL],
              harness: { permissions: { ask: ["add"] } },
            },
          },
        },
      })
    ).revision_id;
    const sums = arithmeticModel();
    model.respondWith((request): Script =>
      JSON.stringify(request.body).includes("needs a person")
        ? { kind: "reply", text: "I may not add without approval." }
        : sums(request),
    );
    const evaluation = await create({ testcases: [{ question: "What is 1 + 2?" }], application_steps: [guarded] });
    expect((await settled(t, key, evaluation.id)).data.status).toBe("success");
    const [invocation] = (await cells(evaluation.id)).filter((c) => c.step_key.startsWith("application-"));
    const refused = invocation.data.outputs.find((m: any) => m.role === "tool" && m.is_error);
    expect(String(refused.content)).toContain("needs a person's approval");
    expect(invocation.data.outputs.at(-1)).toMatchObject({
      role: "assistant",
      content: "I may not add without approval.",
    });
    model.respondWith(arithmeticModel());
  });
});
