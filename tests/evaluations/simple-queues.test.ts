import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drainIngestQueue } from "@/server/tracing";
import { createContextFrom } from "@/server/trpc/init";
import { createCaller } from "@/server/trpc/root";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";
import type { TestApp } from "../helpers/test-app";
import { ADDITIONS, createEntity, evaluationApp, startWorker, workersIdle } from "./eval-fixtures";

let t: TestApp;
let model: ScriptedModelServer;
let worker: { stop(): Promise<void> };
let key: string;
let userId: string;
let projectId: string;
let review: string;
let exact: string;
let testset: { id: string; revision_id: string };

const call = async (method: string, path: string, body?: unknown, status = 200) => {
  const res = await t.call(method, path, { key, body });
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(status);
  return res.body;
};
const createQueue = (data: Record<string, unknown>, status = 200, name = "review") =>
  call("POST", "/api/simple/queues/", { queue: { name, data } }, status);

let sequence = 0;
async function trace(output: string): Promise<string> {
  const id = `${Date.now().toString(16).padStart(16, "0")}${(++sequence).toString(16).padStart(16, "0")}`;
  const res = await t.call("POST", "/api/tracing/spans/ingest", {
    key,
    body: {
      spans: [
        {
          trace_id: id,
          span_id: sequence.toString(16).padStart(16, "0"),
          span_name: "answer",
          start_time: new Date().toISOString(),
          attributes: { "ag.data.inputs": { correct_answer: "4" }, "ag.data.outputs": output },
        },
      ],
    },
  });
  expect(res.status).toBe(202);
  return id;
}

beforeAll(async () => {
  model = await startScriptedModelServer();
  t = await evaluationApp(model);
  ({ key, userId, projectId } = await t.newProject());
  worker = startWorker(t);
  review = (
    await createEntity(t, key, "evaluators", "evaluator", {
      slug: "review",
      data: { uri: "svc:custom:feedback:v0", parameters: {} },
    })
  ).revision_id;
  exact = (
    await createEntity(t, key, "evaluators", "evaluator", {
      slug: "exact",
      data: { uri: "svc:builtin:auto_exact_match:v0", parameters: {} },
    })
  ).revision_id;
  testset = await createEntity(t, key, "testsets", "testset", {
    slug: "additions",
    data: { testcases: ADDITIONS.slice(0, 4) },
  });
});
afterAll(async () => {
  await worker.stop();
  await t.close();
  await model.close();
});

describe("/api/simple/queues", () => {
  it("refuses what the reference refuses, each with its message, and a queue without evaluators", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ queries: [review], testsets: [review], evaluators: [review] }, "either queries or testsets"],
      [{ evaluators: [review] }, "requires kind, queries, or testsets"],
      [{ kind: "queries", evaluators: [review] }, "kind='queries' requires query sources"],
      [{ kind: "traces", queries: [review], evaluators: [review] }, "query-backed queues must use kind='queries'"],
      [{ kind: "traces", evaluators: { [exact]: "auto" } }, "at least one human evaluator"],
      [{ kind: "traces" }, "at least one evaluator"],
    ];
    for (const [data, message] of cases) expect((await createQueue(data, 422)).detail).toContain(message);
  });

  it("a traces queue: pushes are idempotent, automatic scores run, people's wait; unknown ids are clear 4xx", async () => {
    const { queue } = await createQueue({ kind: "traces", evaluators: { [review]: "human", [exact]: "auto" } });
    expect(queue).toMatchObject({
      flags: { is_default: true, is_sequential: false },
      status: "running",
      data: { kind: "traces", evaluators: { [review]: "human", [exact]: "auto" }, repeats: 1, settings: null },
    });
    const { run } = await call("GET", `/api/evaluations/runs/${queue.run_id}`);
    expect(run).toMatchObject({ status: "running", flags: { is_queue: true, has_traces: true, is_active: true } });

    const [a, b, c] = [await trace("4"), await trace("5"), await trace("4")];
    await drainIngestQueue(t.context);
    const push = (ids: string[], status = 200) =>
      call("POST", `/api/simple/queues/${queue.id}/traces/`, { trace_ids: ids }, status);
    expect(await push([a, b])).toEqual({ count: 1, queue_id: queue.id, added: 2, skipped: 0 });
    expect(await push([b, c, c])).toEqual({ count: 1, queue_id: queue.id, added: 1, skipped: 1 });
    expect((await push(["f".repeat(32)], 400)).code).toBe("unknown_trace");
    expect(
      (await call("POST", `/api/simple/queues/${queue.id}/testcases/`, { testcase_ids: [review] }, 400)).code,
    ).toBe("wrong_queue_kind");
    expect((await call("POST", `/api/simple/queues/${review}/traces/`, { trace_ids: [a] }, 404)).code).toBe(
      "not_found",
    );

    // The pushed traces' automatic cells run on the worker; the people's wait.
    await workersIdle(t);
    const scenarios = await call("POST", `/api/simple/queues/${queue.id}/scenarios/query`, {
      queue: { user_id: userId },
    });
    expect(scenarios.count).toBe(3);
    expect(scenarios.scenarios.every((s: any) => s.status === "pending")).toBe(true);
    const cells = (await call("POST", "/api/evaluations/results/query", { result: { run_id: queue.run_id } })).results;
    const stepOf = (origin: string) => run.data.steps.find((s: any) => s.origin === origin).key;
    const auto = cells.filter((r: any) => r.step_key === stepOf("auto"));
    expect(auto.map((r: any) => r.data.outputs.success).sort()).toEqual([false, true, true]);
    expect(cells.filter((r: any) => r.step_key === stepOf("human")).every((r: any) => r.status === "pending")).toBe(
      true,
    );

    expect((await call("GET", `/api/simple/queues/${queue.id}`)).queue.id).toBe(queue.id);
    const byKind = await call("POST", "/api/simple/queues/query", { queue: { kind: "traces" } });
    expect(byKind.queues.map((q: any) => q.id)).toContain(queue.id);
    const otherKind = await call("POST", "/api/simple/queues/query", { queue: { kind: "testcases" } });
    expect(otherKind.queues.map((q: any) => q.id)).not.toContain(queue.id);

    // Deleting a run's default queue deletes the run.
    expect(await call("DELETE", `/api/simple/queues/${queue.id}`)).toEqual({ count: 1, queue_id: queue.id });
    expect(await call("GET", `/api/evaluations/runs/${queue.run_id}`)).toEqual({ count: 0 });
    expect(await call("GET", `/api/simple/queues/${queue.id}`)).toEqual({ count: 0 });
  });

  it("the review page shows each pushed trace's own answer and links its trace", async () => {
    const { queue } = await createQueue({ kind: "traces", evaluators: { [review]: "human" } }, 200, "from traces");
    const [a, b] = [await trace("four"), await trace("five")];
    await drainIngestQueue(t.context);
    await call("POST", `/api/simple/queues/${queue.id}/traces/`, { trace_ids: [a, b] });
    const caller = createCaller(createContextFrom(t.context, { principal: { projectId, userId, role: "member" } }));
    const session = await caller.review.items({ queueId: queue.id });
    expect(session.queue.revision).toBeUndefined();
    expect(session.items.map((i) => ({ output: i.output, traceId: i.traceId?.replaceAll("-", "") }))).toEqual([
      { output: "four", traceId: a },
      { output: "five", traceId: b },
    ]);
  });

  it("a testcases queue takes testcase ids; a testset queue mints its rows at once and refuses pushes", async () => {
    const { queue } = await createQueue({ kind: "testcases", evaluators: [review] });
    expect(queue.data).toMatchObject({ kind: "testcases", evaluators: { [review]: "human" } });
    const { testcases } = await call("POST", "/api/testcases/query", { testset_revision_id: testset.revision_id });
    const ids = testcases.map((tc: any) => tc.id);
    const pushed = await call("POST", `/api/simple/queues/${queue.id}/testcases/`, { testcase_ids: ids.slice(0, 2) });
    expect(pushed).toMatchObject({ added: 2, skipped: 0 });
    const again = await call("POST", `/api/simple/queues/${queue.id}/testcases/`, { testcase_ids: ids.slice(0, 3) });
    expect(again).toMatchObject({ added: 1, skipped: 2 });

    const sourced = await createQueue({
      testsets: [testset.revision_id],
      evaluators: [review],
      assignments: [[userId], [userId]],
      settings: { batch_size: 2 },
    });
    expect(sourced.queue).toMatchObject({
      flags: { is_default: false, is_sequential: true },
      data: {
        kind: "testsets",
        testsets: [testset.revision_id],
        repeats: 2,
        assignments: [[userId], [userId]],
        settings: { batch_size: 2 },
      },
    });
    const rows = await call("POST", `/api/simple/queues/${sourced.queue.id}/scenarios/query`, {});
    expect(rows.count).toBe(4);
    const refused = await call(
      "POST",
      `/api/simple/queues/${sourced.queue.id}/traces/`,
      { trace_ids: ["a".repeat(32)] },
      400,
    );
    // The reference's clients read detail.message here (its simple-queues acceptance tests).
    expect(refused.detail.message).toBe(
      "Cannot add traces directly to a source-backed queue. Create a direct traces queue instead.",
    );
    expect(refused.code).toBe("source_backed_queue");
    const testcasePush = await call(
      "POST",
      `/api/simple/queues/${sourced.queue.id}/testcases/`,
      { testcase_ids: [ids[0]] },
      400,
    );
    expect(testcasePush.detail.message).toBe(
      "Cannot add testcases directly to a source-backed queue. Create a direct testcases queue instead.",
    );
  });
});
