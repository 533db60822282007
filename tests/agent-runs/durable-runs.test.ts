import { Chat } from "@ai-sdk/react";
import { DefaultChatTransport, type UIMessage } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { runSweepWorker } from "@/server/agent-runs";
import { createApiDoors } from "@/server/boot";
import { tables } from "@/server/db";
import { runsRecorded } from "../helpers/after-runs";
import { anotherInstance } from "../helpers/app-instance";
import { serveOnLoopback, type RunningServer } from "../helpers/http-server";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";
import { createTestApp, type TestApp } from "../helpers/test-app";
import { within } from "../helpers/within";

let app: TestApp;
let live: RunningServer;
let model: ScriptedModelServer;
let key: string;

beforeAll(async () => {
  model = await startScriptedModelServer();
  app = await createTestApp({ providerEnv: { openai: { key: "sk-durable", baseUrl: model.baseUrl } } });
  live = await serveOnLoopback(app.handle);
  ({ key } = await app.newProject());
});
afterAll(async () => {
  await live.close();
  await app.close();
  await model.close();
});

const agent = { llm: { provider: "openai", model: "gpt-5-mini" } };
let sessions = 0;
const newSession = () => `durable-${Date.now()}-${++sessions}`;

function invoke(
  sessionId: string,
  options: { accept?: string; format?: string; flags?: object; signal?: AbortSignal },
) {
  return fetch(`${live.origin}/services/agent/v0/invoke`, {
    method: "POST",
    signal: options.signal,
    headers: {
      authorization: `ApiKey ${key}`,
      "content-type": "application/json",
      accept: options.accept ?? "text/event-stream",
      "x-svc-messages-format": options.format ?? "native",
    },
    body: JSON.stringify({
      session_id: sessionId,
      flags: options.flags,
      data: { inputs: { messages: [{ role: "user", content: "hi" }] }, parameters: { agent } },
    }),
  });
}

/** The run once its end is recorded (awaited: the runs this process drives), read once. */
async function endedRun(runId: string) {
  await runsRecorded(app.context);
  const res = await app.call("GET", `/services/agent/v0/runs/${runId}`, { key });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.run.status, `run ${runId}`).not.toBe("running");
  return res.body;
}

/** Native SSE frames as `{id, type, data}`. */
function parseSse(text: string) {
  return text
    .split("\n\n")
    .filter((block) => block.includes("data: "))
    .map((block) => {
      const id = /^id: (.*)$/m.exec(block)?.[1];
      const data = JSON.parse(/^data: (.*)$/m.exec(block)![1]);
      return { id: id === undefined ? undefined : Number(id), ...data };
    });
}

describe("run records", () => {
  it("every turn is a run with its event log; runs are listed by session and fetched with their folded messages", async () => {
    model.script({ kind: "reply", text: "Hello there", usage: { input: 7, output: 3 } });
    const session = newSession();
    const res = await invoke(session, {});
    const runId = res.headers.get("x-svc-run-id")!;
    expect(runId).toMatch(/^[0-9a-f-]{36}$/);
    const frames = parseSse(await res.text());
    // Every native frame carries its position in the run's log.
    expect(frames.map((f) => f.id)).toEqual(frames.map((_, i) => i + 1));

    const detail = await endedRun(runId);
    expect(detail.run).toMatchObject({
      id: runId,
      session_id: session,
      status: "finished",
      stop_reason: "stop",
      usage: { input: 7, output: 3, total: 10 },
      trace_id: res.headers.get("x-svc-trace-id"),
      event_count: frames.length,
      background: false,
      lease: null,
    });
    expect(detail.run.duration_ms).toBeGreaterThanOrEqual(0);
    expect(detail.events.map((e: any) => ({ id: e.seq, type: e.type, data: e.data }))).toEqual(frames);
    expect(detail.outputs.messages).toEqual([{ role: "assistant", content: "Hello there" }]);

    // A second turn of the session: the session's runs are its history, newest first.
    model.script({ kind: "reply", text: "Again" });
    const second = await invoke(session, { accept: "application/json" });
    const secondId = second.headers.get("x-svc-run-id")!;
    await second.json();
    await endedRun(secondId);
    const list = await app.call("GET", `/services/agent/v0/runs?session_id=${session}`, { key });
    expect(list.status).toBe(200);
    expect(list.body.runs.map((r: any) => r.id)).toEqual([secondId, runId]);
    const paged = await app.call("GET", `/services/agent/v0/runs?session_id=${session}&limit=1`, { key });
    expect(paged.body).toMatchObject({ count: 1, next: secondId });
    const rest = await app.call("GET", `/services/agent/v0/runs?session_id=${session}&before=${secondId}`, { key });
    expect(rest.body.runs.map((r: any) => r.id)).toEqual([runId]);
    const finished = await app.call("GET", `/services/agent/v0/runs?status=running,paused&session_id=${session}`, {
      key,
    });
    expect(finished.body.runs).toEqual([]);

    // Another project sees none of it.
    const other = await app.newProject();
    expect((await app.call("GET", `/services/agent/v0/runs/${runId}`, { key: other.key })).status).toBe(404);
    expect(
      (await app.call("GET", `/services/agent/v0/runs?session_id=${session}`, { key: other.key })).body.runs,
    ).toEqual([]);
    expect((await app.call("GET", `/services/agent/v0/runs?status=nope`, { key })).status).toBe(422);
    expect((await app.call("GET", `/services/agent/v0/runs/not-a-run`, { key })).status).toBe(400);
  });
});

describe("a disconnect does not cancel; cancel does", () => {
  it("the turn finishes after its client went away", async () => {
    model.script({ kind: "reply", text: "finished without you", chunks: 6, frameDelayMs: 40 });
    const controller = new AbortController();
    const res = await invoke(newSession(), { signal: controller.signal });
    const runId = res.headers.get("x-svc-run-id")!;
    const reader = res.body!.getReader();
    await reader.read();
    controller.abort();
    const detail = await endedRun(runId);
    expect(detail.run.status).toBe("finished");
    expect(detail.outputs.messages).toEqual([{ role: "assistant", content: "finished without you" }]);
  });

  it("POST cancel stops the run and its model request; later cancels return the final record", async () => {
    model.script({ kind: "hang" });
    const arrived = model.nextRequest();
    const closed = model.nextAbort();
    const res = await invoke(newSession(), {});
    const runId = res.headers.get("x-svc-run-id")!;
    await arrived;
    const cancelled = await app.call("POST", `/services/agent/v0/runs/${runId}/cancel`, { key });
    await closed;
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ id: runId, status: "cancelled", stop_reason: "cancelled" });
    expect(cancelled.body.cancel_requested_at).toEqual(expect.any(String));
    const frames = parseSse(await res.text());
    expect(frames.at(-1)).toMatchObject({ type: "done", data: { stopReason: "cancelled" } });
    const again = await app.call("POST", `/services/agent/v0/runs/${runId}/cancel`, { key });
    expect(again.body).toEqual(cancelled.body);
    const unknown = await app.call("POST", `/services/agent/v0/runs/${crypto.randomUUID()}/cancel`, { key });
    expect(unknown.status).toBe(404);
  });

  it("a cancel reaching another app process stops the run where it runs", async () => {
    model.script({ kind: "hang" });
    const arrived = model.nextRequest();
    const closed = model.nextAbort();
    const res = await invoke(newSession(), {});
    const runId = res.headers.get("x-svc-run-id")!;
    await arrived;
    const second = await anotherInstance(app);
    try {
      const cancelled = await second.call("POST", `/services/agent/v0/runs/${runId}/cancel`, { key });
      await closed;
      expect(cancelled.body).toMatchObject({ status: "cancelled" });
    } finally {
      await second.close();
    }
    await res.text();
  });
});

describe("resume", () => {
  it("a log that stores a block's deltas together resumes from any position inside them", async () => {
    model.script({ kind: "reply", text: "a b c d e f g h i j", chunks: 10 });
    const res = await invoke(newSession(), {});
    const runId = res.headers.get("x-svc-run-id")!;
    const streamed = parseSse(await res.text());
    const detail = await endedRun(runId);
    const logged = detail.events.map((e: any) => ({ id: e.seq, type: e.type, data: e.data }));
    expect(streamed).toEqual(logged);
    expect(logged.filter((f: any) => f.type === "message_delta")).toHaveLength(10);
    // Fewer stored entries than events: the deltas were written as runs, not one object each.
    const rows = await app.context.db
      .select({ events: tables.agentRunEvents.events })
      .from(tables.agentRunEvents)
      .where(eq(tables.agentRunEvents.runId, runId));
    expect(rows.flatMap((row) => row.events as unknown[]).length).toBeLessThan(logged.length - 5);
    for (let after = 0; after < logged.length; after++) {
      const resumed = await fetch(`${live.origin}/services/agent/v0/runs/${runId}/events`, {
        headers: { authorization: `ApiKey ${key}`, accept: "text/event-stream", "last-event-id": String(after) },
      });
      expect(parseSse(await resumed.text())).toEqual(logged.slice(after));
    }
  });

  it("native SSE resumes after Last-Event-ID with no duplicate and no gap", async () => {
    model.script({ kind: "reply", text: "one two three four five six", chunks: 6, frameDelayMs: 30 });
    const controller = new AbortController();
    const res = await invoke(newSession(), { signal: controller.signal });
    const runId = res.headers.get("x-svc-run-id")!;
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    while (parseSse(text).filter((f) => f.type === "message_delta").length < 2) text += (await reader.read()).value;
    controller.abort();
    const before = parseSse(text.slice(0, text.lastIndexOf("\n\n") + 2));
    const lastId = before.at(-1)!.id!;

    const resumed = await fetch(`${live.origin}/services/agent/v0/runs/${runId}/events`, {
      headers: { authorization: `ApiKey ${key}`, accept: "text/event-stream", "last-event-id": String(lastId) },
    });
    expect(resumed.status).toBe(200);
    const after = parseSse(await resumed.text());
    const all = [...before, ...after];
    expect(all.map((f) => f.id)).toEqual(all.map((_, i) => i + 1));
    expect(after.at(-1)).toMatchObject({ type: "done" });
    const text2 = all
      .filter((f) => f.type === "message_delta")
      .map((f) => f.data.delta)
      .join("");
    expect(text2).toBe("one two three four five six");
    const detail = await endedRun(runId);
    expect(all).toEqual(detail.events.map((e: any) => ({ id: e.seq, type: e.type, data: e.data })));

    // NDJSON and batch by run id: the same events, and the folded turn.
    const ndjson = await fetch(`${live.origin}/services/agent/v0/runs/${runId}/events?after=3`, {
      headers: { authorization: `ApiKey ${key}`, accept: "application/x-ndjson" },
    });
    const lines = (await ndjson.text())
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines).toEqual(all.slice(3).map(({ id: _id, ...frame }) => frame));
    const batch = await fetch(`${live.origin}/services/agent/v0/runs/${runId}/events`, {
      headers: { authorization: `ApiKey ${key}`, accept: "application/json" },
    });
    expect((await batch.json()).data.outputs.messages).toEqual([
      { role: "assistant", content: "one two three four five six" },
    ]);
    const bad = await fetch(`${live.origin}/services/agent/v0/runs/${runId}/events`, {
      headers: { authorization: `ApiKey ${key}`, accept: "text/event-stream", "last-event-id": "x" },
    });
    expect(bad.status).toBe(400);
  });

  it("the reconnect answers 204 when the session has no running turn", async () => {
    const res = await fetch(`${live.origin}/services/agent/v0/invoke/${newSession()}/stream`, {
      headers: { authorization: `ApiKey ${key}` },
    });
    expect(res.status).toBe(204);
  });

  it("the AI SDK's Chat reconnecting mid-turn ends with the same messages as an uninterrupted turn, on any process", async () => {
    const script = { kind: "reply" as const, reasoning: "thinking it over", text: "A long answer, slowly", chunks: 5 };
    const transport = (session: string, api = `${live.origin}/services/agent/v0/invoke`) =>
      new DefaultChatTransport<UIMessage>({
        api,
        headers: { authorization: `ApiKey ${key}`, "x-svc-messages-format": "ui_sdk", accept: "text/event-stream" },
        prepareSendMessagesRequest: ({ messages }) => ({
          body: { session_id: session, flags: { stream: true }, data: { inputs: { messages }, parameters: { agent } } },
        }),
      });
    // A Chat's sendMessage and resumeStream resolve once its request is over, its status set.
    const expectSettled = (chat: Chat<UIMessage>) => expect(["ready", "error"]).toContain(chat.status);
    /** Resolves once the chat's messages hold `holds`: the Chat tells each change (as it tells useChat). */
    const messagesHold = (chat: Chat<UIMessage>, holds: (messages: UIMessage[]) => boolean) =>
      new Promise<void>((resolve) => {
        if (holds(chat.messages)) return resolve();
        const stop = chat["~registerMessagesCallback"](() => {
          if (!holds(chat.messages)) return;
          stop();
          resolve();
        });
      });

    // Uninterrupted.
    model.script(script);
    const whole = new Chat<UIMessage>({ id: newSession(), transport: transport("s") });
    await whole.sendMessage({ text: "tell me" });
    expectSettled(whole);
    expect(whole.error).toBeUndefined();

    // Interrupted: the page goes away mid-turn; a new page (a new Chat holding only the user
    // message) resumes through another app process.
    model.script({ ...script, frameDelayMs: 40 });
    const session = newSession();
    const first = new Chat<UIMessage>({ id: session, transport: transport(session) });
    void first.sendMessage({ text: "tell me" });
    await within(
      20_000,
      "the first page's reasoning",
      messagesHold(first, (messages) =>
        messages.some((m) => m.role === "assistant" && m.parts.some((p) => p.type === "reasoning")),
      ),
    );
    await first.stop();
    const userMessage = first.messages[0];

    const second = await anotherInstance(app);
    const server2 = await serveOnLoopback(createApiDoors(second.context).web);
    try {
      const reloaded = new Chat<UIMessage>({
        id: session,
        messages: [userMessage],
        transport: transport(session, `${server2.origin}/services/agent/v0/invoke`),
      });
      await reloaded.resumeStream();
      expectSettled(reloaded);
      expect(reloaded.error).toBeUndefined();
      const shape = (messages: UIMessage[]) =>
        messages.map((m) => ({ role: m.role, parts: m.parts.map(({ providerMetadata: _p, ...part }: any) => part) }));
      expect(shape(reloaded.messages)).toEqual(shape(whole.messages));
      expect(reloaded.messages.at(-1)!.metadata).toMatchObject({ sessionId: session });
    } finally {
      await server2.close();
      await second.close();
    }
    // Once the turn has ended there is nothing to resume.
    const after = await fetch(`${live.origin}/services/agent/v0/invoke/${session}/stream`, {
      headers: { authorization: `ApiKey ${key}` },
    });
    expect(after.status).toBe(204);
  });
});

describe("a run whose process died", () => {
  it("is ended as interrupted by the sweep once its lease expired when it cannot be continued (no recorded request), and its followers finish", async () => {
    const { projectId, key: deadKey } = await app.newProject("dead");
    const runId = crypto.randomUUID();
    // What a process that died mid-turn leaves: a running run, a stale lease, part of its log.
    await app.context.db.insert(tables.agentRuns).values({
      id: runId,
      projectId,
      sessionId: "dead-session",
      agent: {},
      status: "running",
      format: "native",
      messageId: "m",
      traceId: "t".repeat(32),
      spanId: "s".repeat(16),
      leaseOwner: "a-dead-process",
      leaseExpiresAt: new Date(app.context.now().getTime() + 60_000),
    });
    await app.context.db.insert(tables.agentRunEvents).values({
      runId,
      seq: 1,
      lastSeq: 2,
      events: [
        { type: "message_start", id: "msg-0" },
        { type: "message_delta", id: "msg-0", delta: "half" },
      ],
    });
    const following = fetch(`${live.origin}/services/agent/v0/runs/${runId}/events`, {
      headers: { authorization: `ApiKey ${deadKey}`, accept: "text/event-stream" },
    }).then((res) => res.text());
    // Nothing to sweep while the lease holds.
    expect(await runSweepWorker.drain(app.context, 10)).toBe(0);
    // The sweep reads leases against the app's clock: a minute passes without waiting for it.
    app.advanceClock(60_000);
    expect(await runSweepWorker.drain(app.context, 10)).toBe(1);
    expect(await runSweepWorker.drain(app.context, 10)).toBe(0);
    const [row] = await app.context.db.select().from(tables.agentRuns).where(eq(tables.agentRuns.id, runId));
    expect(row).toMatchObject({ status: "failed", stopReason: "interrupted", eventCount: 4, leaseOwner: null });
    const frames = parseSse(await following);
    expect(frames.map((f) => [f.id, f.type])).toEqual([
      [1, "message_start"],
      [2, "message_delta"],
      [3, "error"],
      [4, "done"],
    ]);
    expect(frames[3].data).toMatchObject({ stopReason: "interrupted" });
    const [event] = await app.context.db
      .select()
      .from(tables.events)
      .where(and(eq(tables.events.projectId, projectId), eq(tables.events.eventType, "agents.runs.failed")));
    expect(event.attributes).toMatchObject({ run_id: runId, stop_reason: "interrupted" });
  });
});
