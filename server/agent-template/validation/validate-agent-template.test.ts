import { describe, expect, it } from "vitest";
import { DEFAULT_AGENTS_MD, DEFAULT_MODEL } from "../template";
import { validateAgentTemplate } from "./validate-agent-template";

function valid(input: unknown) {
  const result = validateAgentTemplate(input);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result;
}

const emptyInputSchema = { type: "object", properties: {} };

describe("defaults", () => {
  it("fills every top-level default of the tables", () => {
    expect(valid({}).template).toEqual({
      instructions: { agents_md: DEFAULT_AGENTS_MD },
      llm: { model: DEFAULT_MODEL, provider: null, connection: null, extras: {} },
      tools: [],
      mcps: [],
      skills: [],
      harness: { kind: "core_harness", permissions: { default_mode: null, allow: [], ask: [], deny: [] }, extras: {} },
      runner: { kind: "sidecar", permissions: { default: "allow_reads" }, extras: {} },
      sandbox: { kind: "local", permissions: null, extras: {} },
    });
  });

  it("fills the defaults of a connection and of sandbox permissions", () => {
    const { template } = valid({ llm: { connection: {} }, sandbox: { permissions: {} } });
    expect(template.llm.connection).toEqual({ mode: "managed", slug: null });
    expect(template.sandbox.permissions).toEqual({
      network: { mode: "on", allowlist: [] },
      filesystem: null,
      enforcement: "strict",
    });
  });

  it("fills the defaults of every tool entry type", () => {
    const { template } = valid({
      tools: [
        { type: "builtin", name: "read" },
        { type: "gateway", integration: "github", action: "create_issue", connection: "gh" },
        { type: "code", name: "c", script: "x" },
        { type: "client", name: "k" },
        { type: "reference", slug: "s" },
        { type: "platform", op: "discover_tools" },
      ],
    });
    const common = { permission: null, render: null };
    expect(template.tools).toEqual([
      { type: "builtin", name: "read", ...common },
      {
        type: "gateway",
        provider: "composio",
        integration: "github",
        action: "create_issue",
        connection: "gh",
        name: null,
        ...common,
      },
      {
        type: "code",
        name: "c",
        description: null,
        runtime: "python",
        script: "x",
        input_schema: emptyInputSchema,
        secrets: [],
        ...common,
      },
      { type: "client", name: "k", description: null, input_schema: emptyInputSchema, ...common },
      {
        type: "reference",
        ref_by: "variant",
        slug: "s",
        environment: null,
        version: null,
        name: null,
        description: null,
        input_schema: emptyInputSchema,
        ...common,
      },
      { type: "platform", op: "discover_tools", ...common },
    ]);
  });

  it("fills the defaults of an MCP server and a skill", () => {
    const { template } = valid({
      mcps: [{ name: "docs", connection: { url: "https://x.dev/mcp" } }],
      skills: [{ name: "s", description: "d", body: "b", files: [{ path: "a.txt", content: "" }] }],
    });
    expect(template.mcps).toEqual([
      {
        name: "docs",
        connection: { type: "http", url: "https://x.dev/mcp", headers: {}, credentials: { type: "none" } },
        policy: { tools: { mode: "all", names: [] }, permission: null },
      },
    ]);
    expect(template.skills).toEqual([
      {
        name: "s",
        description: "d",
        body: "b",
        files: [{ path: "a.txt", content: "", executable: false }],
        disable_model_invocation: false,
        allow_executable_files: false,
      },
    ]);
  });

  it("gives each parse its own default objects", () => {
    const first = valid({ tools: [{ type: "client", name: "a" }] }).template;
    const firstTool = first.tools[0];
    if (firstTool?.type !== "client") throw new Error("expected a client tool");
    (firstTool.input_schema.properties as Record<string, unknown>).injected = {};
    first.harness.permissions.allow.push("x");
    const second = valid({ tools: [{ type: "client", name: "a" }] }).template;
    expect(second.tools[0]).toMatchObject({ input_schema: emptyInputSchema });
    expect(second.harness.permissions.allow).toEqual([]);
  });
});

describe("llm.model provider/model split", () => {
  it("splits on the first slash when no provider is given", () => {
    expect(valid({ llm: { model: "together_ai/meta-llama/Llama-3.3-70B" } }).template.llm).toMatchObject({
      provider: "together_ai",
      model: "meta-llama/Llama-3.3-70B",
    });
  });

  it("splits when provider is explicitly null", () => {
    expect(valid({ llm: { model: "openai/gpt-5", provider: null } }).template.llm).toMatchObject({
      provider: "openai",
      model: "gpt-5",
    });
  });

  it("keeps the model verbatim when a provider is given, even if it disagrees", () => {
    expect(valid({ llm: { provider: "openrouter", model: "anthropic/claude-sonnet-4.5" } }).template.llm).toMatchObject(
      {
        provider: "openrouter",
        model: "anthropic/claude-sonnet-4.5",
      },
    );
    expect(valid({ llm: { provider: "openai", model: "openai/gpt-5" } }).template.llm.model).toBe("openai/gpt-5");
  });

  it("leaves a plain model id and its null provider alone", () => {
    expect(valid({ llm: { model: "gpt-5" } }).template.llm).toMatchObject({ provider: null, model: "gpt-5" });
  });

  it("stores the model as sent", () => {
    expect(valid({ llm: { model: "anthropic/claude-haiku-4-5" } }).stored).toEqual({
      llm: { model: "anthropic/claude-haiku-4-5" },
    });
  });
});

describe("builtin permissions", () => {
  const input = {
    tools: [
      { type: "builtin", name: "bash", permission: "ask" },
      { type: "code", name: "c", script: "x", permission: "deny" },
    ],
  };

  it("drops a builtin permission with a warning naming the path", () => {
    const result = valid(input);
    expect(result.warnings).toHaveLength(1);
    expect(result.warnings[0]).toMatch(/^tools\[0\]\.permission is ignored on builtin tools: /);
    expect(result.template.tools[0]).toMatchObject({ type: "builtin", permission: null });
    expect(result.template.tools[1]).toMatchObject({ type: "code", permission: "deny" });
  });

  it("stores the template as sent minus the dropped permission, without touching the input", () => {
    const result = valid(input);
    expect(result.stored).toEqual({
      tools: [
        { type: "builtin", name: "bash" },
        { type: "code", name: "c", script: "x", permission: "deny" },
      ],
    });
    expect(input.tools[0]).toHaveProperty("permission", "ask");
  });

  it("does not warn about an explicit null permission", () => {
    expect(valid({ tools: [{ type: "builtin", name: "read", permission: null }] }).warnings).toEqual([]);
  });
});

describe("other warnings", () => {
  it("warns that builtin tools do nothing on the external harness", () => {
    const result = valid({ harness: { kind: "external_harness" }, tools: [{ type: "builtin", name: "read" }] });
    expect(result.warnings).toEqual([
      'tools[0] (builtin "read") has no effect: harness.kind "external_harness" has no built-in tools',
    ]);
  });

  it("warns that an allowlist without mode allowlist is ignored", () => {
    const result = valid({ sandbox: { permissions: { network: { allowlist: ["10.0.0.0/8"] } } } });
    expect(result.warnings).toEqual([
      'sandbox.permissions.network.allowlist is ignored: it applies only when network.mode is "allowlist" (mode is "on")',
    ]);
  });

  it("has no warnings for the plain defaults", () => {
    expect(valid({}).warnings).toEqual([]);
  });
});

describe("errors", () => {
  it("reports every problem, not just the first", () => {
    const result = validateAgentTemplate({
      model: "gpt-5",
      agents_md: "hi",
      harness: "core_harness",
      sandbox: "local",
      runner: { permissions: { default: "sometimes" }, mode: "x" },
      mcps: [{ name: "agenta-tools", connection: { url: "https://x.dev" } }],
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.map((e) => e.path).sort()).toEqual(
      ["agents_md", "harness", "mcps[0].name", "model", "runner.mode", "runner.permissions.default", "sandbox"].sort(),
    );
  });

  it("words the Errors table rows so a person can act on them", () => {
    const result = validateAgentTemplate({
      model: "x",
      agents_md: "y",
      harness: "core_harness",
      runner: { permissions: { default: "x" }, extra: 1 },
    });
    expect(result).toEqual({
      ok: false,
      errors: expect.arrayContaining([
        { path: "model", message: 'unknown key "model": use llm.model, e.g. {"llm": {"model": "gpt-5-mini"}}' },
        {
          path: "agents_md",
          message:
            'unknown key "agents_md": use instructions.agents_md, e.g. {"instructions": {"agents_md": "You are ..."}}',
        },
        {
          path: "harness",
          message:
            'harness must be an object, not a bare string: use an object with "kind", e.g. {"kind": "core_harness"}',
        },
        { path: "runner.extra", message: 'unknown selector key "extra"; allowed keys: kind, permissions, extras' },
        { path: "runner.permissions.default", message: 'must be one of allow, ask, deny, allow_reads; got "x"' },
      ]),
    });
  });

  it("reports one error for an embed reference instead of a mismatch per tool type", () => {
    const embed = {
      "@svc.embed": { "@svc.references": { workflow: { slug: "w" } }, "@svc.selector": { path: "parameters.tool" } },
    };
    const result = validateAgentTemplate({ tools: [embed] });
    expect(result.ok ? [] : result.errors).toEqual([
      {
        path: "tools[0]",
        message:
          'is an unresolved embed reference ("@svc.embed"); embeds are resolved to inline entries before the template is validated',
      },
    ]);
  });
});
