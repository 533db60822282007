import { Chat } from "@ai-sdk/react";
import { DefaultChatTransport, lastAssistantMessageIsCompleteWithToolCalls, type UIMessage } from "ai";
import { afterAll, beforeAll, expect, it } from "vitest";
import { serveOnLoopback, type RunningServer } from "../helpers/http-server";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";
import { createTestApp, type TestApp } from "../helpers/test-app";

let app: TestApp;
let live: RunningServer;
let model: ScriptedModelServer;
let key: string;

beforeAll(async () => {
  model = await startScriptedModelServer();
  app = await createTestApp({ providerEnv: { openai: { key: "sk-chat", baseUrl: model.baseUrl } } });
  live = await serveOnLoopback(app.handle);
  ({ key } = await app.newProject());
});
afterAll(async () => {
  await live.close();
  await app.close();
  await model.close();
});

const agent = {
  llm: { provider: "openai", model: "gpt-5-mini" },
  tools: [
    {
      type: "client",
      name: "pick_color",
      description: "Ask the user",
      input_schema: { type: "object", properties: { hint: { type: "string" } } },
    },
  ],
};

it("the AI SDK's Chat and DefaultChatTransport drive the live route through a client-tool round trip", async () => {
  model.script(
    { kind: "reply", text: "Let me ask.", toolCalls: [{ id: "call_1", name: "pick_color", input: { hint: "warm" } }] },
    { kind: "reply", text: "Red it is." },
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
        bodies.push(body);
        return { body };
      },
    }),
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithToolCalls,
    onToolCall: ({ toolCall }) => {
      if (toolCall.toolName === "pick_color")
        void chat.addToolOutput({ tool: "pick_color", toolCallId: toolCall.toolCallId, output: "red" });
    },
    onFinish: ({ message }) => {
      if (message.parts.some((p) => p.type === "text" && p.text === "Red it is.")) finished(message);
    },
    onError: (error) => {
      throw error;
    },
  });

  await chat.sendMessage({ text: "choose a colour" });
  const message = await done;
  expect(chat.error).toBeUndefined();
  expect(bodies).toHaveLength(2);
  expect(chat.messages).toHaveLength(2);
  // The reply continued the paused assistant message: same id, tool part answered, then the text.
  const parts = message.parts.filter((p) => p.type !== "step-start");
  expect(parts).toEqual([
    { type: "text", text: "Let me ask.", state: "done" },
    expect.objectContaining({
      type: "tool-pick_color",
      toolCallId: "call_1",
      state: "output-available",
      input: { hint: "warm" },
      output: "red",
    }),
    { type: "text", text: "Red it is.", state: "done" },
  ]);
  expect(message.metadata).toMatchObject({ sessionId: chat.id, usage: { input: 10, output: 5, total: 15 } });
  expect(model.requests.at(-1)!.body.input.at(-1)).toEqual({
    type: "function_call_output",
    call_id: "call_1",
    output: "red",
  });
});
