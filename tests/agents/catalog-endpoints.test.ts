import Ajv2020 from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultAgentTemplate } from "@/server/agent-template";
import { createTestApp, type TestApp } from "../helpers/test-app";

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await createTestApp();
  key = (await t.newProject()).key;
});
afterAll(() => t.close());

describe("catalog endpoints", () => {
  it("serves the agent-template JSON Schema, which compiles and accepts the default template", async () => {
    const res = await t.call("GET", "/api/workflows/catalog/types/agent-template", { key });
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(1);
    expect(res.body.type.key).toBe("agent-template");
    const schema = res.body.type.json_schema;
    expect(schema.$schema).toContain("2020-12");
    expect(schema.additionalProperties).toBe(false);
    const validate = new Ajv2020({ strict: false }).compile(schema);
    expect(validate(defaultAgentTemplate())).toBe(true);
    expect(validate({ model: "gpt-5" })).toBe(false);
  });

  it("serves the messages type with the six roles", async () => {
    const res = await t.call("GET", "/api/workflows/catalog/types/messages", { key });
    expect(res.status).toBe(200);
    const validate = new Ajv2020({ strict: false }).compile(res.body.type.json_schema);
    for (const role of ["developer", "system", "user", "assistant", "tool", "function"]) {
      expect(validate([{ role, content: "hi" }]), role).toBe(true);
    }
    expect(validate([{ role: "user", content: [{ type: "text", text: "hi" }] }])).toBe(true);
    expect(validate([{ role: "robot", content: "hi" }])).toBe(false);
  });

  it("answers 404 for an unknown type or harness, naming the known ones", async () => {
    const type = await t.call("GET", "/api/workflows/catalog/types/nope", { key });
    expect(type.status).toBe(404);
    expect(type.body.detail).toContain("agent-template");
    const harness = await t.call("GET", "/api/workflows/catalog/harnesses/nope", { key });
    expect(harness.status).toBe(404);
    expect(harness.body.detail).toContain("core_harness");
  });

  it("describes each harness: providers, deployments, connection modes, model selection", async () => {
    const list = await t.call("GET", "/api/workflows/catalog/harnesses", { key });
    expect(list.body.count).toBe(3);
    const core = (await t.call("GET", "/api/workflows/catalog/harnesses/core_harness", { key })).body.harness;
    expect(core.slug).toBe("svc:harness:core_harness:v0");
    expect(core.providers.map((p: { provider: string }) => p.provider).sort()).toEqual(
      ["anthropic", "gemini", "groq", "minimax", "mistral", "openai", "openrouter", "together_ai"].sort(),
    );
    for (const p of core.providers) expect(p.deployments).toEqual(["direct", "custom"]);
    const service = (await t.call("GET", "/api/workflows/catalog/harnesses/service_harness", { key })).body.harness;
    expect(service.slug).toBe("svc:harness:service_harness:v0");
    const external = (await t.call("GET", "/api/workflows/catalog/harnesses/external_harness", { key })).body.harness;
    expect(external.providers.map((p: { provider: string }) => p.provider)).toEqual(["anthropic"]);
    expect(external.providers[0].deployments).toEqual(["direct", "custom", "bedrock", "vertex"]);
    expect(external.model_selection.kind).toBe("alias");
    expect(external.model_selection.aliases).toEqual(expect.arrayContaining(["default", "sonnet", "haiku", "opus"]));
    // This deployment has not enabled it (EXTERNAL_HARNESS): listed, but not as available.
    expect(external.available).toBe(false);
    expect(external.unavailable_reason).toContain("EXTERNAL_HARNESS=enabled");
    expect(list.body.harnesses.map((h: { kind: string; available: boolean }) => [h.kind, h.available])).toEqual([
      ["core_harness", true],
      ["service_harness", true],
      ["external_harness", false],
    ]);
  });

  it("requires an API key", async () => {
    expect((await t.call("GET", "/api/workflows/catalog/types/agent-template")).status).toBe(401);
  });
});

describe("inspect", () => {
  it("returns the agent interface with the default template as the agent default", async () => {
    const res = await t.call("GET", "/services/agent/v0/inspect", { key });
    expect(res.status).toBe(200);
    const { parameters, inputs } = res.body.interface.schemas;
    expect(parameters.properties.agent["x-catalog-type"]).toBe("agent-template");
    expect(parameters.properties.agent.default).toEqual(defaultAgentTemplate());
    expect(inputs.properties.messages["x-catalog-type"]).toBe("messages");
    const tools = parameters.properties.agent.default.tools.map((tool: { name: string }) => tool.name);
    expect(tools).toEqual(["read", "bash", "edit", "write"]);
  });
});
