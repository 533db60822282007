import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContextFrom } from "@/server/trpc/init";
import { createCaller } from "@/server/trpc/root";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";
import type { TestApp } from "../helpers/test-app";
import {
  ADD_TOOL,
  ADDER_PROMPT,
  ADDITIONS,
  arithmeticModel,
  createEntity,
  evaluationApp,
  requestText,
  settled,
  startWorker,
} from "./eval-fixtures";

/**
 * A review queue over a testset that runs each testcase through a revision first (an agent's or a
 * prompt's), with the evaluation engine: people see the input, the revision's output and its
 * trace, and may judge a case only once its output is there. Without a revision the queue is the
 * testcases as they are.
 */
let t: TestApp;
let model: ScriptedModelServer;
let worker: { stop(): Promise<void> };
let key: string;
let caller: ReturnType<typeof createCaller>;
let testset: string;
let human: string;
let prompt: string;
let agent: string;

const ROWS = ADDITIONS.slice(2, 5);

beforeAll(async () => {
  model = await startScriptedModelServer();
  model.respondWith(arithmeticModel());
  t = await evaluationApp(model);
  const p = await t.newProject();
  key = p.key;
  caller = createCaller(
    createContextFrom(t.context, { principal: { projectId: p.projectId, userId: p.userId, role: "member" } }),
  );
  worker = startWorker(t);
  testset = (await createEntity(t, key, "testsets", "testset", { slug: "sums", data: { testcases: ROWS } }))
    .revision_id;
  human = (
    await createEntity(t, key, "evaluators", "evaluator", {
      slug: "correctness",
      data: { uri: "svc:custom:feedback:v0", parameters: {} },
    })
  ).revision_id;
  prompt = (await createEntity(t, key, "applications", "application", { slug: "adder", data: ADDER_PROMPT }))
    .revision_id;
  agent = (
    await createEntity(t, key, "workflows", "workflow", {
      slug: "calculator",
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
});
afterAll(async () => {
  await worker.stop();
  await t.close();
  await model.close();
});

/** The queue's run once the revision has answered every row (input and invocation cells done). */
async function answered(queueId: string) {
  const queue = (await caller.review.queues()).find((q) => q.id === queueId)!;
  await settled(t, key, queue.runId, (e) => e.progress.cells_done === ROWS.length * 2);
  return queue;
}

describe("review queue over a testset, run through a revision", () => {
  it("lists the project's agent and prompt revisions for the picker, nothing that cannot be invoked", async () => {
    await createEntity(t, key, "workflows", "workflow", { slug: "empty-workflow", data: { parameters: {} } });
    const { agents, prompts } = await caller.review.revisions();
    expect(agents).toEqual([
      {
        id: expect.any(String),
        name: "calculator",
        revisions: [expect.objectContaining({ id: agent, kind: "agent" })],
      },
    ]);
    expect(prompts).toEqual([
      { id: expect.any(String), name: "adder", revisions: [expect.objectContaining({ id: prompt, kind: "prompt" })] },
    ]);
  });

  it("a prompt revision: each testcase runs through it, people see input, output and trace, and their scores finish the run", async () => {
    const before = model.requests.length;
    const { id } = await caller.review.create({
      name: "Adder answers",
      testsetRevisionId: testset,
      revisionId: prompt,
      evaluatorRevisionIds: [human],
    });
    const queue = await answered(id);
    expect(queue).toMatchObject({ revision: { id: prompt, name: "adder" }, total: 3, done: 0 });
    // One model call per testcase, each with that testcase's numbers in the prompt.
    const calls = model.requests.slice(before).map(requestText);
    expect(calls).toHaveLength(3);
    for (const row of ROWS) expect(calls.some((c) => c.includes(`Add ${row.a} and ${row.b}.`))).toBe(true);

    const { queue: shown, steps, items } = await caller.review.items({ queueId: id });
    expect(shown.revision).toEqual({ id: prompt, name: "adder", version: expect.stringMatching(/^\d+$/) });
    expect(items).toHaveLength(3);
    const traces = new Set<string>();
    for (const item of items) {
      const row = item.inputs as { correct_answer: string };
      expect(item).toMatchObject({ outputStatus: "success", traceId: expect.stringMatching(/^[0-9a-f]{32}$/) });
      expect(JSON.stringify(item.output)).toContain(row.correct_answer);
      traces.add(item.traceId!);
    }
    expect(traces.size).toBe(3);

    // The REST door shows the same queue with its application.
    const rest = await t.call("GET", `/api/simple/queues/${id}`, { key });
    expect(rest.status).toBe(200);
    expect(rest.body.queue.data).toMatchObject({ kind: "testsets", testsets: [testset], application: prompt });

    for (const item of items)
      await caller.review.annotate({ queueId: id, scenarioId: item.scenarioId, stepKey: steps[0].key, score: 5 });
    const done = await settled(t, key, queue.runId);
    expect(done.data.status).toBe("success");
    expect((await caller.review.queues()).find((q) => q.id === id)).toMatchObject({ done: 3, total: 3 });
  });

  it("an agent revision: the output is the agent's messages (its tool call and answer)", async () => {
    const { id } = await caller.review.create({
      name: "Calculator answers",
      testsetRevisionId: testset,
      revisionId: agent,
      evaluatorRevisionIds: [human],
    });
    await answered(id);
    const { queue, items } = await caller.review.items({ queueId: id });
    expect(queue.revision).toMatchObject({ id: agent, name: "calculator" });
    for (const item of items) {
      const row = item.inputs as { correct_answer: string };
      expect(item.outputStatus).toBe("success");
      expect(item.traceId).toMatch(/^[0-9a-f]{32}$/);
      const output = JSON.stringify(item.output);
      expect(output).toContain('"tool_name":"add"');
      expect(output).toContain(row.correct_answer);
    }
  });

  it("a case cannot be scored before the revision answered it; it can once the output is there", async () => {
    await worker.stop();
    const { id } = await caller.review.create({
      name: "Not yet",
      testsetRevisionId: testset,
      revisionId: prompt,
      evaluatorRevisionIds: [human],
    });
    const early = await caller.review.items({ queueId: id });
    expect(early.items.map((i) => i.outputStatus)).toEqual(["queued", "queued", "queued"]);
    expect(early.items[0].output).toBeUndefined();
    const annotation = { queueId: id, scenarioId: early.items[0].scenarioId, stepKey: early.steps[0].key, score: 4 };
    await expect(caller.review.annotate(annotation)).rejects.toMatchObject({
      code: "CONFLICT",
      message: expect.stringContaining(`adder has not answered scenario ${early.items[0].scenarioId} yet`),
    });

    worker = startWorker(t);
    await answered(id);
    expect(await caller.review.annotate(annotation)).toEqual({ score: 4 });
  });

  it("without a revision the queue is the testcases as they are: no output, scored at once, no model call", async () => {
    const before = model.requests.length;
    const { id } = await caller.review.create({
      name: "Inputs only",
      testsetRevisionId: testset,
      evaluatorRevisionIds: [human],
    });
    const { queue, steps, items } = await caller.review.items({ queueId: id });
    expect(queue.revision).toBeUndefined();
    expect((await caller.review.queues()).find((q) => q.id === id)?.revision).toBeUndefined();
    expect(items.map((i) => [i.output, i.outputStatus, i.traceId])).toEqual(
      ROWS.map(() => [undefined, undefined, undefined]),
    );
    await caller.review.annotate({ queueId: id, scenarioId: items[0].scenarioId, stepKey: steps[0].key, score: 2 });
    const rest = await t.call("GET", `/api/simple/queues/${id}`, { key });
    expect(rest.body.queue.data).not.toHaveProperty("application");
    expect(model.requests.length).toBe(before);
  });

  it("refuses a revision that is no agent or prompt of the project, naming it, and leaves no queue behind", async () => {
    const queuesBefore = (await caller.review.queues()).length;
    const missing = "01900000-0000-7000-8000-00000000abcd";
    await expect(
      caller.review.create({
        name: "x",
        testsetRevisionId: testset,
        revisionId: missing,
        evaluatorRevisionIds: [human],
      }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining(missing) });
    // A testset revision is a revision of the project, but nothing to run the rows through.
    await expect(
      caller.review.create({
        name: "x",
        testsetRevisionId: testset,
        revisionId: testset,
        evaluatorRevisionIds: [human],
      }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining(testset) });
    await expect(
      caller.review.create({
        name: "x",
        testsetRevisionId: testset,
        revisionId: "not-a-uuid",
        evaluatorRevisionIds: [human],
      }),
    ).rejects.toMatchObject({ code: "UNPROCESSABLE_CONTENT" });

    const rest = await t.call("POST", "/api/simple/queues/", {
      key,
      body: { queue: { name: "x", data: { testsets: [testset], application: missing, evaluators: [human] } } },
    });
    expect(rest.status).toBe(400);
    expect(rest.body).toMatchObject({ code: "unknown_revision", detail: expect.stringContaining(missing) });
    expect(rest.body.detail).toContain("queue.data.application");

    const empty = await createEntity(t, key, "workflows", "workflow", {
      slug: "nothing-to-run",
      data: { parameters: {} },
    });
    const hollow = await t.call("POST", "/api/simple/queues/", {
      key,
      body: {
        queue: { name: "x", data: { testsets: [testset], application: empty.revision_id, evaluators: [human] } },
      },
    });
    expect(hollow.status).toBe(400);
    expect(hollow.body).toMatchObject({ code: "not_invocable", detail: expect.stringContaining(empty.revision_id) });
    expect((await caller.review.queues()).length).toBe(queuesBefore);
  });

  it("the REST door creates the same queue: its wire names the application and the rows run through it", async () => {
    const res = await t.call("POST", "/api/simple/queues/", {
      key,
      body: {
        queue: { name: "From the API", data: { testsets: [testset], application: prompt, evaluators: [human] } },
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.queue.data).toMatchObject({ application: prompt, evaluators: { [human]: "human" } });
    await answered(res.body.queue.id);
    const { items } = await caller.review.items({ queueId: res.body.queue.id });
    expect(items.every((i) => i.outputStatus === "success" && i.traceId)).toBe(true);
  });
});
