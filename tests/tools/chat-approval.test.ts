import { Chat } from "@ai-sdk/react";
import { DefaultChatTransport, lastAssistantMessageIsCompleteWithApprovalResponses, type UIMessage } from "ai";
import { afterAll, beforeAll, expect, it } from "vitest";
import { runOfTrace } from "@/server/chat-sessions";
import { loadWorkspace } from "@/server/sandbox";
import { serveOnLoopback, type RunningServer } from "../helpers/http-server";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";
import { createTestApp, type TestApp } from "../helpers/test-app";
import { spansOf } from "../helpers/run-trace";
import { runsRecorded } from "../helpers/after-runs";

let app: TestApp;
let live: RunningServer;
let model: ScriptedModelServer;
let key: string;
let projectId: string;
/** The trace of the turn that resumed after the approval (set by the first test). */
let resumedTraceId: string;
let chatSessionId: string;

beforeAll(async () => {
  model = await startScriptedModelServer();
  app = await createTestApp({ providerEnv: { openai: { key: "sk-chat", baseUrl: model.baseUrl } } });
  live = await serveOnLoopback(app.handle);
  ({ key, projectId } = await app.newProject());
});
afterAll(async () => {
  await live.close();
  await app.close();
  await model.close();
});

// The default policy (allow_reads) asks before `write`.
const agent = { llm: { provider: "openai", model: "gpt-5-mini" }, tools: [{ type: "builtin", name: "write" }] };

it("the AI SDK's Chat pauses on the approval request, addToolApprovalResponse resumes it, and the tool runs exactly once", async () => {
  model.script(
    {
      kind: "reply",
      text: "Saving.",
      toolCalls: [{ id: "call_w", name: "write", input: { path: "hello.txt", content: "hi" } }],
    },
    { kind: "reply", text: "Saved." },
  );
  const bodies: any[] = [];
  let finished: (message: UIMessage) => void;
  const done = new Promise<UIMessage>((resolve) => (finished = resolve));
  const chat: Chat<UIMessage> = new Chat({
    transport: new DefaultChatTransport({
      api: `${live.origin}/services/agent/v0/invoke`,
      headers: { authorization: `ApiKey ${key}`, "x-svc-messages-format": "ui_sdk", accept: "text/event-stream" },
      prepareSendMessagesRequest: ({ id, messages }) => {
        const body = { session_id: id, flags: { stream: true }, data: { inputs: { messages }, parameters: { agent } } };
        bodies.push(structuredClone(body));
        return { body };
      },
    }),
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
    onFinish: ({ message }) => {
      if (message.parts.some((p) => p.type === "text" && p.text === "Saved.")) finished(message);
    },
    onError: (error) => {
      throw error;
    },
  });

  await chat.sendMessage({ text: "save hello" });
  // Paused: the person sees the request in the message and answers it, as a UI button would.
  const paused = chat.messages.at(-1)!.parts.find((p) => p.type === "tool-write") as {
    state: string;
    approval?: { id: string };
  };
  expect(paused.state).toBe("approval-requested");
  expect(model.requests).toHaveLength(1);
  await chat.addToolApprovalResponse({ id: paused.approval!.id, approved: true });
  const message = await done;
  expect(chat.error).toBeUndefined();
  expect(bodies).toHaveLength(2);
  // The second request replays the paused message with the gated part answered.
  expect(bodies[1].data.inputs.messages.at(-1).parts.find((p: any) => p.type === "tool-write")).toMatchObject({
    state: "approval-responded",
    approval: { approved: true },
  });
  const parts = message.parts.filter((p) => p.type !== "step-start");
  expect(parts).toEqual([
    { type: "text", text: "Saving.", state: "done" },
    expect.objectContaining({
      type: "tool-write",
      toolCallId: "call_w",
      state: "output-available",
      output: "wrote 2 bytes to hello.txt",
    }),
    { type: "text", text: "Saved.", state: "done" },
  ]);
  const entries = await loadWorkspace(app.context.db, projectId, chat.id, { maxBytes: 1e6, idleMs: 60_000 });
  expect(entries).toEqual([
    expect.objectContaining({ path: "/workspace/hello.txt", base64: Buffer.from("hi").toString("base64") }),
  ]);
  // Two model calls in all: the pause, then the continuation after the tool ran once.
  expect(model.requests).toHaveLength(2);
  resumedTraceId = (message.metadata as { traceId: string }).traceId;
  chatSessionId = bodies[0].session_id;
});

it("the resumed turn's trace shows the approved call once, with its real input and output, as approved", async () => {
  // Both runs of the lineage land in this trace, each when its turn ends: await both ends.
  await runsRecorded(app.context);
  const res = await app.call("GET", `/api/traces/${resumedTraceId}`, { key });
  expect(res.status).toBe(200);
  const body = res.body;
  const spans = spansOf<{ span_name: string; attributes?: any }>(body);
  // The continuing run joins the paused run's trace: two model calls (the pause, the continuation);
  // the approval step is no model call.
  expect(spans.filter((s) => s.span_name.startsWith("invoke_agent"))).toHaveLength(2);
  expect(spans.filter((s) => s.span_name.startsWith("chat "))).toHaveLength(2);
  const tools = spans.filter((s) => s.span_name === "execute_tool write");
  expect(tools).toHaveLength(1);
  expect(tools[0].attributes.ag.data.inputs).toEqual({ path: "hello.txt", content: "hi" });
  expect(tools[0].attributes.ag.data.outputs).toBe("wrote 2 bytes to hello.txt");
  expect(tools[0].attributes.ag.meta.tool.approved).toBe(true);

  const run = runOfTrace(body.traces?.[0] ?? body.trace ?? body);
  const calls = run!.messages.flatMap((m) => m.parts).filter((p) => p.type === "tool-write");
  expect(calls).toEqual([
    expect.objectContaining({
      toolCallId: "call_w",
      state: "output-available",
      input: { path: "hello.txt", content: "hi" },
      output: "wrote 2 bytes to hello.txt",
      approval: expect.objectContaining({ approved: true }),
    }),
  ]);
  expect(JSON.stringify(run!.messages)).not.toContain("interactionToken");
  // The run the trace opens at (the continuation) names the chat's session, so "Open in chat" finds it.
  expect(run!.sessionId).toBe(chatSessionId);
});
