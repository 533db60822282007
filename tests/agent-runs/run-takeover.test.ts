import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { runSweepWorker } from "@/server/agent-runs";
import { tables } from "@/server/db";
import { loadWorkspace, saveWorkspace } from "@/server/sandbox";
import { toolSpanId } from "@/server/agent-runs/tool-span-id";
import { runsRecorded } from "../helpers/after-runs";
import { traceSpans } from "../helpers/run-trace";
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
let runs = 0;

/**
 * What a process that died mid-turn leaves behind: a run started 10 s ago, its events in
 * `batches` logged a second apart from 9 s ago on. Returns the run and its session.
 */
async function deadRun(
  batches: object[][],
  options: {
    agent?: object;
    request?: boolean;
    messages?: unknown[];
    sessionId?: string;
    origin?: string;
    parentRunId?: string;
  } = {},
) {
  const runId = crypto.randomUUID();
  const sessionId = options.sessionId ?? `takeover-${Date.now()}-${++runs}`;
  const startedAt = Date.now() - 10_000;
  const traceId = randomBytes(16).toString("hex");
  const spanId = randomBytes(8).toString("hex");
  await app.context.db.insert(tables.agentRuns).values({
    id: runId,
    projectId: account.projectId,
    sessionId,
    agent: {},
    status: "running",
    format: "native",
    messageId: "m",
    traceId,
    spanId,
    createdAt: new Date(startedAt),
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
                inputs: { messages: options.messages ?? [{ role: "user", content: "look at notes.txt" }] },
                parameters: { agent: options.agent ?? agent },
              },
            },
          },
  });
  let seq = 1;
  for (const [i, events] of batches.entries()) {
    const writtenAt = new Date(startedAt + (i + 1) * 1_000);
    await app.context.db
      .insert(tables.agentRunEvents)
      .values({ runId, seq, lastSeq: seq + events.length - 1, events, writtenAt });
    seq += events.length;
  }
  return { runId, sessionId, startedAt, traceId, spanId, batchAt: (i: number) => startedAt + (i + 1) * 1_000 };
}

const ms = (iso: string) => Date.parse(iso);

/** The run once its end is recorded (awaited: the runs this process drives, a taken-over one too), read once. */
async function ended(runId: string) {
  await runsRecorded(app.context);
  const res = await app.call("GET", `/services/agent/v0/runs/${runId}`, { key: account.key });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.run.status, `run ${runId}`).not.toBe("running");
  return res.body;
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
    const dead = await deadRun([
      [
        { type: "message_start", id: "msg-0" },
        { type: "message_delta", id: "msg-0", delta: "Reading." },
        { type: "message_end", id: "msg-0" },
      ],
      called(READ),
    ]);
    const { runId, sessionId } = dead;
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

    // The trace is the whole run's: one root from the run's start, the dead process's step, the
    // interrupted call and its re-run, the continuation's model call; the takeover on the root.
    const spans = await traceSpans(app, account.key, dead.traceId, 6);
    const root = spans.find((s) => s.span_id === dead.spanId)!;
    expect(ms(root.start_time)).toBe(dead.startedAt);
    expect(root.attributes?.ag?.meta?.run?.takeovers).toBe(1);
    const takeover = root.events!.find((e) => e.name === "run_taken_over")!;
    expect(ms(takeover.timestamp)).toBeGreaterThan(dead.batchAt(1));
    expect(spans.filter((s) => s.span_id === dead.spanId)).toHaveLength(1);
    const chats = spans.filter((s) => s.span_name.startsWith("chat "));
    expect(chats.map((s) => [s.status_code, ms(s.start_time) < ms(takeover.timestamp)])).toEqual([
      ["STATUS_CODE_OK", true],
      ["STATUS_CODE_OK", false],
    ]);
    expect([ms(chats[0].start_time), ms(chats[0].end_time)]).toEqual([dead.startedAt, dead.batchAt(1)]);
    const reads = spans.filter((s) => s.span_name === "execute_tool read");
    expect(reads.map((s) => [s.status_code, s.status_message ?? null])).toEqual([
      ["STATUS_CODE_ERROR", expect.stringMatching(/^interrupted/)],
      ["STATUS_CODE_OK", null],
    ]);
    expect(ms(reads[0].start_time)).toBe(dead.batchAt(1));
    expect(ms(reads[0].end_time)).toBe(ms(takeover.timestamp));
    // The re-run is the call's own span (a nested run started by it names it as parent).
    expect(reads[1].span_id).toBe(toolSpanId(dead.traceId, "call_r"));
    expect(new Set(spans.map((s) => s.span_id)).size).toBe(spans.length);
  });

  it("never runs a side-effecting call twice: it becomes an error result that says it was interrupted", async () => {
    const dead = await deadRun([called(WRITE)]);
    const { runId, sessionId } = dead;
    model.script({ kind: "reply", text: "I will check first." });
    expect(await runSweepWorker.drain(app.context, 10)).toBe(1);
    const body = await ended(runId);
    expect(body.run.status).toBe("finished");
    expect(await fileOf(sessionId)).toBeUndefined();
    const result = body.outputs.messages.find((m: any) => m.role === "tool" && m.is_error);
    expect(result.content).toMatch(/"write" was interrupted.*not run again/);
    expect(JSON.stringify(model.requests.at(-1)!.body)).toContain("was interrupted");

    const spans = await traceSpans(app, account.key, dead.traceId, 5);
    expect(spans.map((s) => [s.span_name, s.status_code])).toEqual([
      [expect.stringMatching(/^invoke_agent/), "STATUS_CODE_OK"],
      ["turn 1", "STATUS_CODE_OK"],
      ["chat gpt-5-mini", "STATUS_CODE_OK"],
      ["execute_tool write", "STATUS_CODE_ERROR"],
      ["chat gpt-5-mini", "STATUS_CODE_OK"],
    ]);
    const write = spans[3];
    expect(write.span_id).toBe(toolSpanId(dead.traceId, "call_w"));
    expect(write.status_message).toMatch(/^interrupted/);
  });

  it("discards a half-written model step and issues it again; folds drop the partial text", async () => {
    const dead = await deadRun([
      [...called(READ), { type: "tool_result", id: "call_r", output: "earlier result" }],
      [
        { type: "message_start", id: "msg-1" },
        { type: "message_delta", id: "msg-1", delta: "The notes s" },
        { type: "tool_call", id: "call_x", name: "write", input: {} },
      ],
    ]);
    const { runId } = dead;
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

    // The half-written step is in the trace as the model call it was, interrupted.
    const spans = await traceSpans(app, account.key, dead.traceId, 6);
    expect(spans.slice(2).map((s) => [s.span_name, s.status_code])).toEqual([
      ["chat gpt-5-mini", "STATUS_CODE_OK"],
      ["execute_tool read", "STATUS_CODE_OK"],
      ["chat gpt-5-mini", "STATUS_CODE_ERROR"],
      ["chat gpt-5-mini", "STATUS_CODE_OK"],
    ]);
    expect(spans[4].status_message).toMatch(/^interrupted/);
    expect(ms(spans[4].start_time)).toBe(dead.batchAt(0));
    // The call only announced never reached its tool: the root's takeover event names it as discarded, no span is it.
    expect(spans.filter((s) => JSON.stringify(s).includes("call_x")).map((s) => s.span_id)).toEqual([dead.spanId]);
  });

  it("a run that answered an approval and ran the call before dying goes on with the call's result", async () => {
    // The dead process ran the approved write (its request is used) and was writing the next step.
    const dead = await deadRun(
      [
        [{ type: "tool_result", id: WRITE.id, output: "wrote 14 bytes to notes.txt" }],
        [{ type: "message_start", id: "msg-0" }],
      ],
      {
        messages: [
          { role: "user", content: "save a note" },
          {
            role: "assistant",
            content: [{ type: "tool_call", toolCallId: WRITE.id, toolName: "write", input: WRITE.input }],
          },
          {
            role: "tool",
            content: [
              {
                type: "tool_result",
                tool_call_id: WRITE.id,
                tool_name: "write",
                approved: true,
                interaction_token: "apr_used-by-the-dead-process",
              },
            ],
          },
        ],
        agent: { ...agent, harness: { permissions: { ask: ["write"] } } },
      },
    );
    const before = model.requests.length;
    model.script({ kind: "reply", text: "Saved." });
    expect(await runSweepWorker.drain(app.context, 10)).toBe(1);
    const body = await ended(dead.runId);
    // Not asked again: the model went on, told what the write did; the write did not run twice.
    expect(body.run).toMatchObject({ status: "finished", stop_reason: "stop" });
    expect(model.requests.length).toBe(before + 1);
    expect(JSON.stringify(model.requests.at(-1)!.body)).toContain("wrote 14 bytes to notes.txt");
    expect(await fileOf(dead.sessionId)).toBeUndefined();
    expect(body.events.filter((e: any) => e.type === "interaction_request")).toHaveLength(0);
  });

  it("fails the run, with the reason, when it cannot be continued", async () => {
    const gone = await deadRun([called(READ)], {
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
