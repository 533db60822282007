import { afterAll, beforeAll, expect, it } from "vitest";
import { DEFAULT_AGENTS_MD } from "@/server/agent-template";
import { loadConfig } from "@/server/core/config";
import { startingModel } from "@/server/agent-runs/providers";
import { HttpClient } from "../helpers/http-client";
import { serveOverHttp, type RunningServer } from "../helpers/http-server";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";
import { createTestApp, type TestApp } from "../helpers/test-app";

let t: TestApp;
let server: RunningServer;
let model: ScriptedModelServer;
let owner: HttpClient;

beforeAll(async () => {
  model = await startScriptedModelServer();
  // No operator key at all: the only model this project can run is a local one it stores.
  const { egressAllowlist } = loadConfig({ EGRESS_ALLOWLIST: "127.0.0.1" });
  t = await createTestApp({ egressAllowlist, providerEnv: {} });
  server = await serveOverHttp(t);
  owner = new HttpClient(server.origin);
  expect(
    (
      await owner.send("POST", "/api/accounts/owner", {
        body: { name: "Ada", email: "ada@example.com", password: "correct horse battery" },
      })
    ).status,
  ).toBe(201);
});
afterAll(async () => {
  await server.close();
  await t.close();
  await model.close();
});

it("a new agent starts on a model the project can run, and its first chat works with only a local model", async () => {
  const stored = await owner.mutate("connections.create", {
    header: { name: "Local Ollama" },
    secret: {
      kind: "custom_provider",
      data: { kind: "custom", provider: { url: model.baseUrl }, models: [{ slug: "llama3.2" }, { slug: "qwen2.5" }] },
    },
  });
  expect(stored.status).toBe(200);
  const slug = stored.data.slug ?? stored.data.header?.slug;
  expect((await owner.query("connections.customModels")).data).toEqual([
    { slug: expect.any(String), name: "Local Ollama", models: ["llama3.2", "qwen2.5"] },
  ]);

  const created = await owner.mutate("agents.create", { name: "Local helper" });
  expect(created.status).toBe(200);
  const template = created.data.revision.data.parameters.agent;
  expect(template.llm).toEqual({ connection: { slug: expect.any(String) }, model: "llama3.2" });
  if (slug) expect(template.llm.connection.slug).toBe(slug);

  model.script({ kind: "reply", text: "Hello from llama." });
  const r = await owner.send("POST", "/api/playground/invoke", {
    body: {
      session_id: "s-local",
      references: { workflow_variant: { id: created.data.variant.id } },
      data: { inputs: { messages: [{ id: "u1", role: "user", parts: [{ type: "text", text: "hi" }] }] } },
    },
    headers: { "x-svc-messages-format": "ui_sdk", accept: "text/event-stream" },
  });
  expect(r.status).toBe(200);
  const frames = String(r.body)
    .split("\n")
    .filter((l) => l.startsWith("data: {"))
    .map((l) => JSON.parse(l.slice(6)));
  expect(
    frames
      .filter((f) => f.type === "text-delta")
      .map((f) => f.delta)
      .join(""),
  ).toBe("Hello from llama.");
  expect(String(r.body)).not.toContain('"type":"error"');
});

it("the playground commits the template a person set, in the shape the API stores: no schema expansion", async () => {
  const created = await owner.mutate("agents.create", { name: "Shape probe" });
  const template = created.data.revision.data.parameters.agent;
  expect(Object.keys(template).sort()).toEqual([
    "harness",
    "instructions",
    "llm",
    "mcps",
    "runner",
    "sandbox",
    "tools",
  ]);
  expect(template.instructions).toEqual({ agents_md: DEFAULT_AGENTS_MD });
  expect(template.tools).toEqual(["read", "bash", "edit", "write"].map((name) => ({ type: "builtin", name })));
  expect(template.runner).toEqual({ kind: "sidecar", permissions: { default: "allow_reads" } });
  expect(JSON.stringify(template)).not.toMatch(/"extras"|"render"|null/);
});

it("prefers the built-in default when its provider is connected, else the cheapest model of a connected provider", () => {
  expect(startingModel({ providers: [{ provider: "openai", source: "operator" }], custom: [] })).toEqual({
    provider: "openai",
    model: "gpt-5-mini",
  });
  const anthropic = startingModel({
    providers: [{ provider: "anthropic", source: "stored", name: "Work" }],
    custom: [{ slug: "local", name: "Local", models: ["llama3.2"] }],
  });
  expect(anthropic).toMatchObject({ provider: "anthropic" });
  expect(startingModel({ providers: [], custom: [] })).toEqual({ provider: "openai", model: "gpt-5-mini" });
});
