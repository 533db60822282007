import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { runSweepWorker } from "@/server/agent-runs";
import { tables } from "@/server/db";
import { loadWorkspace, saveWorkspace } from "@/server/sandbox";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";
import { createTestApp, type TestApp } from "../helpers/test-app";

/**
 * Crash takeover in one process: the log a process leaves when it dies mid-turn is written
 * directly (a running run, its recorded request, part of its events, a lease that expired), and
 * the sweep takes it over. The kill -9 variant across processes is `run-takeover-kill.test.ts`.
 */
let app: TestApp;
let model: ScriptedModelServer;
let account: Awaited<ReturnType<TestApp["newProject"]>>;

beforeAll(async () => {
  model = await startScriptedModelServer();
  app = await createTestApp({ providerEnv: { openai: { key: "sk-takeover", baseUrl: model.baseUrl } } });
  account = await app.newProject();
});
afterAll(async () => {
  await app.close();
  await model.close();
});

const agent = {
  llm: { provider: "openai", model: "gpt-5-mini" },
  tools: ["read", "write"].map((name) => ({ type: "builtin", name })),
  harness: { permissions: { allow: ["write"] } },
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
let runs = 0;

/** What a process that died mid-turn leaves behind; returns the run id and its session. */
async function deadRun(
  events: object[],
  options: { agent?: object; request?: boolean; origin?: string; parentRunId?: string } = {},
) {
  const runId = crypto.randomUUID();
  const sessionId = `takeover-${Date.now()}-${++runs}`;
  await app.context.db.insert(tables.agentRuns).values({
    id: runId,
    projectId: account.projectId,
    sessionId,
    agent: {},
    status: "running",
    format: "native",
    messageId: "m",
    traceId: "a".repeat(32),
    spanId: "b".repeat(16),
    leaseOwner: "a-dead-process",
    leaseExpiresAt: new Date(Date.now() - 1),
    origin: options.origin,
    parentRunId: options.parentRunId,
    request:
      options.request === false
        ? null
        : {
            principal: { userId: account.userId, role: account.role },
            body: {
              session_id: sessionId,
              data: {
                inputs: { messages: [{ role: "user", content: "look at notes.txt" }] },
                parameters: { agent: options.agent ?? agent },
              },
            },
          },
  });
  if (events.length)
    await app.context.db.insert(tables.agentRunEvents).values({ runId, seq: 1, lastSeq: events.length, events });
  return { runId, sessionId };
}

async function ended(runId: string) {
  for (let i = 0; i < 200; i++) {
    const res = await app.call("GET", `/services/agent/v0/runs/${runId}`, { key: account.key });
    if (res.status === 200 && res.body.run.status !== "running") return res.body;
    await sleep(50);
  }
  throw new Error(`run ${runId} did not end`);
}

/** The run's log as native frames (`id` = seq). */
const framesOf = (body: any): Array<{ id: number; type: string; data: any }> =>
  body.events.map((e: any) => ({ id: e.seq, type: e.type, data: e.data }));

const READ = { id: "call_r", name: "read", input: { path: "notes.txt" } };
const WRITE = { id: "call_w", name: "write", input: { path: "notes.txt", content: "written twice?" } };
const called = (call: typeof READ) => [
  { type: "tool_call", id: call.id, name: call.name, input: {} },
  { type: "tool_call", id: call.id, name: call.name, input: call.input },
];
const fileOf = async (sessionId: string) => {
  const entries = await loadWorkspace(app.context.db, account.projectId, sessionId, { maxBytes: 1e6, idleMs: 60_000 });
  const file = entries.find((e) => e.path === "/workspace/notes.txt");
  return file && file.kind === "file" ? Buffer.from(file.base64, "base64").toString() : undefined;
};

describe("a run whose process died is taken over", () => {
  it("re-runs a read-only tool call whose result was not recorded, then asks the model again", async () => {
    const { runId, sessionId } = await deadRun([
      { type: "message_start", id: "msg-0" },
      { type: "message_delta", id: "msg-0", delta: "Reading." },
      { type: "message_end", id: "msg-0" },
      ...called(READ),
    ]);
    const content = Buffer.from("the notes").toString("base64");
    await saveWorkspace(
      app.context.db,
      account.projectId,
      sessionId,
      [{ path: "/workspace/notes.txt", kind: "file", mode: 0o644, base64: content }],
      9,
    );
    model.script({ kind: "reply", text: "The notes say hi." });
    expect(await runSweepWorker.drain(app.context, 10)).toBe(1);
    const body = await ended(runId);
    expect(body.run).toMatchObject({ status: "finished", stop_reason: "stop" });

    // The model was given the input, the step so far and the re-run's result.
    const sent = JSON.stringify(model.requests.at(-1)!.body);
    expect(sent).toContain("look at notes.txt");
    expect(sent).toContain("the notes");

    const frames = framesOf(body);
    expect(frames.map((f) => f.id)).toEqual(frames.map((_, i) => i + 1));
    expect(frames[5]).toMatchObject({
      type: "data",
      data: { name: "run_taken_over", data: { discard: [], interrupted: ["call_r"] } },
    });
    expect(frames[6]).toMatchObject({ type: "tool_result", data: { id: "call_r" } });
    expect(JSON.stringify(frames[6].data.output)).toContain("the notes");
    expect(body.outputs.messages.map((m: any) => [m.role, m.content])).toEqual([
      ["assistant", "Reading."],
      ["tool", ""],
      ["tool", expect.stringContaining("the notes")],
      ["assistant", "The notes say hi."],
    ]);
  });

  it("never runs a side-effecting call twice: it becomes an error result that says it was interrupted", async () => {
    const { runId, sessionId } = await deadRun([...called(WRITE)]);
    model.script({ kind: "reply", text: "I will check first." });
    expect(await runSweepWorker.drain(app.context, 10)).toBe(1);
    const body = await ended(runId);
    expect(body.run.status).toBe("finished");
    expect(await fileOf(sessionId)).toBeUndefined();
    const result = body.outputs.messages.find((m: any) => m.role === "tool" && m.is_error);
    expect(result.content).toMatch(/"write" was interrupted.*not run again/);
    expect(JSON.stringify(model.requests.at(-1)!.body)).toContain("was interrupted");
  });

  it("discards a half-written model step and issues it again; folds drop the partial text", async () => {
    const { runId } = await deadRun([
      ...called(READ),
      { type: "tool_result", id: "call_r", output: "earlier result" },
      { type: "message_start", id: "msg-1" },
      { type: "message_delta", id: "msg-1", delta: "The notes s" },
      { type: "tool_call", id: "call_x", name: "write", input: {} },
    ]);
    model.script({ kind: "reply", text: "The notes say hello." });
    expect(await runSweepWorker.drain(app.context, 10)).toBe(1);
    const body = await ended(runId);
    expect(body.outputs.messages.map((m: any) => [m.role, m.content])).toEqual([
      ["tool", ""],
      ["tool", "earlier result"],
      ["assistant", "The notes say hello."],
    ]);
    const frames = framesOf(body);
    expect(frames[6]).toMatchObject({ data: { name: "run_taken_over", data: { discard: ["call_x", "msg-1"] } } });
    // The continued turn's blocks carry ids of their own.
    expect(frames.find((f) => f.type === "message_start" && f.id > 7)!.data.id).toBe("t6-msg-0");
  });

  it("fails the run, with the reason, when it cannot be continued", async () => {
    const gone = await deadRun([...called(READ)], {
      agent: { ...agent, llm: { provider: "openai", model: "gpt-5-mini", connection: { slug: "gone" } } },
    });
    const unrecorded = await deadRun([], { request: false });
    expect(await runSweepWorker.drain(app.context, 10)).toBe(2);
    const [a] = await app.context.db.select().from(tables.agentRuns).where(eq(tables.agentRuns.id, gone.runId));
    expect(a).toMatchObject({ status: "failed", stopReason: "interrupted", leaseOwner: null });
    expect(a.error).toMatch(/could not be continued: the turn could not be prepared again: .*gone/);
    const [b] = await app.context.db.select().from(tables.agentRuns).where(eq(tables.agentRuns.id, unrecorded.runId));
    expect(b.error).toMatch(/could not be continued: its request was not recorded/);
  });

  it("fails an OpenAI door run and a nested run: their one reader (the connection, the calling tool call) died with the process", async () => {
    const door = await deadRun([], { request: false, origin: "openai" });
    const nested = await deadRun([], { request: false, origin: "nested", parentRunId: crypto.randomUUID() });
    expect(await runSweepWorker.drain(app.context, 10)).toBe(2);
    const [a] = await app.context.db.select().from(tables.agentRuns).where(eq(tables.agentRuns.id, door.runId));
    expect(a).toMatchObject({ status: "failed", stopReason: "interrupted", origin: "openai" });
    expect(a.error).toMatch(/could not be continued: an OpenAI-compatible request ends with its connection/);
    const [b] = await app.context.db.select().from(tables.agentRuns).where(eq(tables.agentRuns.id, nested.runId));
    expect(b).toMatchObject({ status: "failed", origin: "nested" });
    expect(b.error).toMatch(/could not be continued: a nested run ends with the tool call of its parent run/);
  });
});
