import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { afterResponseSettled } from "@/server/boot";
import { tables } from "@/server/db";
import { adderAndExactMatch, arithmeticModel, evaluationApp } from "../evaluations/eval-fixtures";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";
import type { CallOptions, TestApp } from "../helpers/test-app";

const CRON_SECRET = "cron-secret-0123456789abcdef";

/**
 * WORKERS=after-response as a serverless platform runs it: the work an answer queued runs in
 * the task handed to `after()`, and the platform freezes the function once that task settles.
 * So what must be done by then is asserted right when the task settles, not polled for later:
 * an evaluation's cells, a background run, and a run whose process died (taken over by the drain
 * after any write, or by the cron route, whose answer is the function's end).
 */
describe("WORKERS=after-response: evaluations and agent runs", () => {
  let model: ScriptedModelServer;
  let t: TestApp;
  let project: Awaited<ReturnType<TestApp["newProject"]>>;

  beforeAll(async () => {
    model = await startScriptedModelServer();
    // A budget no loaded test machine runs out of: what is tested is where the work runs.
    t = await evaluationApp(model, {
      workers: "after-response",
      cronSecret: CRON_SECRET,
      workAfterResponseMs: 120_000,
    });
    project = await t.newProject("serverless-runs");
  });
  afterAll(async () => {
    await afterResponseSettled(t.context);
    await t.close();
    await model.close();
  });

  /** A call through the Next.js door; resolves once the answer's `after()` tasks have settled too. */
  async function callThenAfter(method: string, path: string, options: CallOptions = {}) {
    const tasks: Promise<void>[] = [];
    const headers: Record<string, string> = { ...options.headers, "content-type": "application/json" };
    if (options.key) headers.authorization = `ApiKey ${options.key}`;
    const response = await t.handle(
      new Request(`http://localhost${path}`, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
      }),
      (task) => tasks.push(task()),
    );
    const body = await response.json();
    const t0 = performance.now();
    await Promise.all(tasks);
    return { status: response.status, body, after: tasks.length, ms: performance.now() - t0 };
  }

  const runStatus = async (runId: string) =>
    (await t.call("GET", `/services/agent/v0/runs/${runId}`, { key: project.key })).body.run.status;

  it("runs an evaluation's cells to the end in the task after the answer that created it", async () => {
    model.respondWith(arithmeticModel());
    const { prompt, exact } = await adderAndExactMatch(t, project.key);
    const testcases = Array.from({ length: 12 }, (_, i) => ({ a: i, b: 2, correct_answer: String(i + 2) }));
    const created = await callThenAfter("POST", "/api/simple/evaluations/", {
      key: project.key,
      body: {
        evaluation: {
          data: { testcases, application_steps: [prompt], evaluator_steps: [exact], concurrency: { batch_size: 4 } },
        },
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.after).toBe(1);
    const id = created.body.evaluation.id;
    const evaluation = (await t.call("GET", `/api/simple/evaluations/${id}`, { key: project.key })).body.evaluation;
    // batch_size 4 over 12 rows: the drain's rounds claimed and recorded every cell.
    expect(evaluation.data.status, JSON.stringify({ ms: created.ms, p: evaluation.progress })).toBe("success");
    expect(evaluation.progress.cells_done).toBe(evaluation.progress.cells_total);
    model.respondWith(undefined);
  });

  it("keeps the function until a background run it started has ended", async () => {
    model.script({ kind: "reply", text: "Done in the background", delayMs: 400 });
    const started = await callThenAfter("POST", "/services/agent/v0/invoke", {
      key: project.key,
      body: {
        session_id: "serverless-bg",
        flags: { background: true },
        data: {
          inputs: { messages: [{ role: "user", content: "work" }] },
          parameters: { agent: { llm: { provider: "openai", model: "gpt-5-mini" } } },
        },
      },
    });
    expect(started.status).toBe(202);
    expect(await runStatus(started.body.run_id)).toBe("finished");
  });

  /** A run whose process died mid-answer: its request recorded, half a message logged, its lease run out. */
  async function deadRun(): Promise<string> {
    const runId = crypto.randomUUID();
    const sessionId = `serverless-dead-${runId}`;
    await t.context.db.insert(tables.agentRuns).values({
      id: runId,
      projectId: project.projectId,
      sessionId,
      agent: {},
      status: "running",
      format: "native",
      messageId: "m",
      traceId: randomBytes(16).toString("hex"),
      spanId: randomBytes(8).toString("hex"),
      createdAt: new Date(Date.now() - 10_000),
      leaseOwner: "a-dead-process",
      leaseExpiresAt: new Date(Date.now() - 1),
      request: {
        principal: { userId: project.userId, role: project.role },
        body: {
          session_id: sessionId,
          data: {
            inputs: { messages: [{ role: "user", content: "say hi" }] },
            parameters: { agent: { llm: { provider: "openai", model: "gpt-5-mini" } } },
          },
        },
      },
    });
    await t.context.db.insert(tables.agentRunEvents).values({
      runId,
      seq: 1,
      lastSeq: 2,
      events: [
        { type: "message_start", id: "msg-0" },
        { type: "message_delta", id: "msg-0", delta: "Hel" },
      ],
      writtenAt: new Date(Date.now() - 9_000),
    });
    return runId;
  }

  it("takes a dead run over after any write and keeps the function until the run has ended", async () => {
    const runId = await deadRun();
    model.script({ kind: "reply", text: "Hi.", delayMs: 400 });
    const write = await callThenAfter("POST", "/api/simple/applications/", {
      key: project.key,
      body: { application: { slug: `any-write-${Date.now()}`, data: {} } },
    });
    expect(write.status, JSON.stringify(write.body)).toBe(200);
    expect(await runStatus(runId)).toBe("finished");
  });

  it("answers the cron route once the runs it took over have ended", async () => {
    const runId = await deadRun();
    model.script({ kind: "reply", text: "Hi.", delayMs: 400 });
    const cron = await t.call("GET", "/api/cron/work", { headers: { authorization: `Bearer ${CRON_SECRET}` } });
    expect(cron.status).toBe(200);
    expect(cron.body.workers["agent-run-sweep"]).toEqual({ handled: 1 });
    expect(await runStatus(runId)).toBe("finished");
  });
});
