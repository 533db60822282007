import { afterAll, beforeAll, expect, it } from "vitest";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";
import { createTestApp, type TestApp } from "../helpers/test-app";

let app: TestApp;
let model: ScriptedModelServer;
let key: string;

beforeAll(async () => {
  model = await startScriptedModelServer();
  app = await createTestApp({ providerEnv: { openai: { key: "sk-settings", baseUrl: model.baseUrl } } });
  ({ key } = await app.newProject());
});
afterAll(async () => {
  await app.close();
  await model.close();
});

it("the form's model settings reach the provider: temperature and max output tokens as call settings, reasoning effort as a provider option", async () => {
  model.script({ kind: "reply", text: "ok" });
  const invoke = (llm: Record<string, unknown>) =>
    app.call("POST", "/services/agent/v0/invoke", {
      key,
      body: {
        data: { inputs: { messages: [{ role: "user", content: "hi" }] }, parameters: { agent: { llm, tools: [] } } },
      },
    });
  expect(
    (await invoke({ provider: "openai", model: "gpt-4.1", extras: { temperature: 0.2, max_output_tokens: 321 } }))
      .status,
  ).toBe(200);
  // The wire name is the provider API's own (max_tokens, max_output_tokens, max_completion_tokens).
  const tokenLimit = (body: Record<string, unknown>) =>
    Object.entries(body).find(([name]) => /^max_(completion_|output_)?tokens$/.test(name))?.[1];
  expect(model.requests.at(-1)!.body).toMatchObject({ model: "gpt-4.1", temperature: 0.2 });
  expect(tokenLimit(model.requests.at(-1)!.body)).toBe(321);
  expect(model.requests.at(-1)!.body).not.toHaveProperty("maxOutputTokens");

  expect(
    (
      await invoke({
        provider: "openai",
        model: "gpt-5-mini",
        extras: { reasoning_effort: "low", max_output_tokens: 500 },
      })
    ).status,
  ).toBe(200);
  expect(JSON.stringify(model.requests.at(-1)!.body)).toMatch(/"(reasoning_effort|effort)":"low"/);
  expect(tokenLimit(model.requests.at(-1)!.body)).toBe(500);
});
