import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROVIDER_IDS } from "@/server/agent-template";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";
import { createTestApp, type TestApp } from "../helpers/test-app";
import { ndjsonData } from "../helpers/ui-stream-check";
import { checkNativeRules } from "../helpers/invoke-client";

let app: TestApp;
let model: ScriptedModelServer;
let key: string;

const MODELS: Record<string, string> = {
  openai: "gpt-5-mini",
  anthropic: "claude-haiku-4-5",
  gemini: "gemini-2.5-flash",
  mistral: "mistral-small-latest",
  groq: "llama-3.3-70b-versatile",
  minimax: "MiniMax-M2",
  together_ai: "meta-llama/Llama-3.3-70B-Instruct-Turbo",
  openrouter: "openai/gpt-5",
};

beforeAll(async () => {
  model = await startScriptedModelServer();
  const providerEnv = Object.fromEntries(
    PROVIDER_IDS.map((id) => [id, { key: `key-for-${id}`, baseUrl: `${model.url}/${id}/v1` }]),
  );
  app = await createTestApp({ providerEnv });
  ({ key } = await app.newProject());
});
afterAll(async () => {
  await app.close();
  await model.close();
});

const CLIENT_TOOL = {
  type: "client",
  name: "lookup",
  input_schema: { type: "object", properties: { q: { type: "string" } } },
};

async function run(provider: string) {
  const res = await app.call("POST", "/services/agent/v0/invoke", {
    key,
    headers: { accept: "application/x-ndjson" },
    body: {
      data: {
        inputs: { messages: [{ role: "user", content: "hi" }] },
        parameters: { agent: { llm: { provider, model: MODELS[provider] }, tools: [CLIENT_TOOL] } },
      },
    },
  });
  expect(res.status).toBe(200);
  const events = (ndjsonData(res.body) as Array<{ type: string; data: any }>).map((f) => ({ type: f.type, ...f.data }));
  checkNativeRules(events as never);
  return events;
}

const PATHS: Record<string, string> = {
  openai: "/openai/v1/responses",
  anthropic: "/anthropic/v1/messages",
  gemini: "/gemini/v1/models/gemini-2.5-flash:streamGenerateContent",
};

it("OpenAI's reasoning summary (Responses API) streams as a thought before the text", async () => {
  model.script({ kind: "reply", reasoning: "Weighing the options.", text: "Done." });
  const events = await run("openai");
  expect(
    events
      .filter((e) => e.type === "thought_delta")
      .map((e) => e.delta)
      .join(""),
  ).toBe("Weighing the options.");
  expect(events.findIndex((e) => e.type === "thought_start")).toBeLessThan(
    events.findIndex((e) => e.type === "message_start"),
  );
});

describe.each(PROVIDER_IDS)("%s", (provider) => {
  it("streams text with usage and cost through its own provider package, authenticated with its key", async () => {
    model.script({ kind: "reply", text: `Hello from ${provider}`, usage: { input: 100, output: 50 } });
    const events = await run(provider);
    expect(
      events
        .filter((e) => e.type === "message_delta")
        .map((e) => e.delta)
        .join(""),
    ).toBe(`Hello from ${provider}`);
    expect(["stop", "end_turn"]).toContain(events.at(-1).stopReason);
    const usage = events.find((e) => e.type === "usage");
    expect(usage).toMatchObject({ input: 100, output: 50, total: 150 });
    expect(usage.cost).toBeGreaterThan(0);
    const request = model.requests.at(-1)!;
    expect(JSON.stringify(request.headers)).toContain(`key-for-${provider}`);
    expect(request.path).toBe(PATHS[provider] ?? `/${provider}/v1/chat/completions`);
    expect(JSON.stringify({ path: request.path, body: request.body })).toContain(MODELS[provider]);
  });

  it("streams a tool call whose arguments arrive in pieces, and pauses for the client", async () => {
    model.script({
      kind: "reply",
      toolCalls: [{ id: "call_9", name: "lookup", input: { q: "weather in Paris" } }],
      chunks: 4,
    });
    const events = await run(provider);
    const calls = events.filter((e) => e.type === "tool_call");
    expect(calls.at(-1)).toMatchObject({ name: "lookup", input: { q: "weather in Paris" } });
    expect(events.find((e) => e.type === "interaction_request")).toMatchObject({
      kind: "client_tool",
      payload: { toolName: "lookup", input: { q: "weather in Paris" } },
    });
    expect(events.at(-1)).toMatchObject({ type: "done", stopReason: "paused" });
  });

  it("turns a 401 into a sentence naming the connection", async () => {
    model.script({ kind: "status", status: 401 });
    const events = await run(provider);
    expect(events.find((e) => e.type === "error")?.message).toContain("was rejected by the provider: 401");
  });
});
