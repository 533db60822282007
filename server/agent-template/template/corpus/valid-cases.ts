import { valid, type CorpusCase } from "./corpus-case";

const mcp = (extra: Record<string, unknown> = {}) => ({
  name: "docs",
  connection: { url: "https://mcp.example.com/mcp" },
  ...extra,
});
const skill = (extra: Record<string, unknown> = {}) => ({
  name: "pdf-tools",
  description: "Work with PDFs",
  body: "# PDF",
  ...extra,
});
const file = (path: string, extra: Record<string, unknown> = {}) =>
  skill({ files: [{ path, content: "x", ...extra }] });

export const validCases: CorpusCase[] = [
  valid("empty template takes every default", {}),
  valid("instructions only", { instructions: { agents_md: "Be brief." } }),
  valid("empty agents_md", { instructions: { agents_md: "" } }),
  valid("plain model id", { llm: { model: "gpt-5" } }),
  valid("provider/model string", { llm: { model: "anthropic/claude-sonnet-4-5" } }),
  valid("explicit provider keeps a slashed model verbatim", {
    llm: { provider: "openrouter", model: "anthropic/claude-sonnet-4.5" },
  }),
  valid("provider/model with a slash in the model part", {
    llm: { model: "together_ai/meta-llama/Llama-3.3-70B-Instruct-Turbo" },
  }),
  valid("managed connection with slug", { llm: { connection: { mode: "managed", slug: "my-openai" } } }),
  valid("self_managed connection", { llm: { connection: { mode: "self_managed" } } }),
  valid("self_managed with explicit null slug", { llm: { connection: { mode: "self_managed", slug: null } } }),
  valid("null connection", { llm: { connection: null } }),
  valid("empty connection object", { llm: { connection: {} } }),
  valid("llm extras", { llm: { extras: { reasoning_effort: "high", nested: { a: [1] } } } }),
  valid("all seven builtin tools", {
    tools: ["read", "bash", "edit", "write", "grep", "find", "ls"].map((name) => ({ type: "builtin", name })),
  }),
  valid("builtin permission is accepted (dropped with a warning)", {
    tools: [{ type: "builtin", name: "bash", permission: "deny" }],
  }),
  valid("builtin with render", {
    tools: [{ type: "builtin", name: "read", render: { icon: "file" }, permission: null }],
  }),
  valid("gateway tool", {
    tools: [{ type: "gateway", integration: "github", action: "create_issue", connection: "my-gh" }],
  }),
  valid("gateway tool fully specified", {
    tools: [
      {
        type: "gateway",
        provider: "composio",
        integration: "slack",
        action: "post",
        connection: "c",
        name: "post_message",
        permission: "ask",
      },
    ],
  }),
  valid("code tool", { tools: [{ type: "code", name: "add", script: "def main(a, b): return a + b" }] }),
  valid("code tool fully specified", {
    tools: [
      {
        type: "code",
        name: "fx",
        description: "rates",
        runtime: "node",
        script: "x",
        input_schema: { type: "object", properties: { a: { type: "number" } } },
        secrets: ["FX_KEY"],
        permission: "allow",
      },
    ],
  }),
  valid("client tool", { tools: [{ type: "client", name: "pick_file", description: "Pick", input_schema: {} }] }),
  valid("reference tool by variant", { tools: [{ type: "reference", slug: "summarizer" }] }),
  valid("reference tool pinned version", {
    tools: [{ type: "reference", ref_by: "variant", slug: "summarizer", version: "3" }],
  }),
  valid("reference tool by environment", {
    tools: [
      { type: "reference", ref_by: "environment", slug: "summarizer", environment: "production", name: "summarize" },
    ],
  }),
  valid("reference tool explicit nulls", {
    tools: [{ type: "reference", slug: "s", environment: null, version: null }],
  }),
  valid("platform tool", { tools: [{ type: "platform", op: "discover_tools", permission: "ask", render: null }] }),
  valid("minimal MCP server", { mcps: [mcp()] }),
  valid("MCP server over plain http", {
    mcps: [mcp({ connection: { type: "http", url: "http://localhost:3001/mcp" } })],
  }),
  valid("MCP headers and secret refs", {
    mcps: [
      mcp({
        connection: {
          url: "https://x.dev",
          headers: { "X-Team": "a" },
          credentials: { type: "header_secret_refs", headers: { Authorization: "linear-token" } },
        },
      }),
    ],
  }),
  valid("MCP credentials none", {
    mcps: [mcp({ connection: { url: "https://x.dev", credentials: { type: "none" } } })],
  }),
  valid("MCP policy include", {
    mcps: [mcp({ policy: { tools: { mode: "include", names: ["search"] }, permission: "ask" } })],
  }),
  valid("MCP policy all with explicit empty names", { mcps: [mcp({ policy: { tools: { mode: "all", names: [] } } })] }),
  valid("MCP name of 128 allowed characters", { mcps: [mcp({ name: `a.b_c-${"d".repeat(122)}` })] }),
  valid("MCP name that only contains the reserved one", { mcps: [mcp({ name: "agenta-tools-2" })] }),
  valid("minimal skill", { skills: [skill()] }),
  valid("skill with nested files", {
    skills: [
      skill({
        files: [
          { path: "scripts/run.py", content: "print(1)" },
          { path: "docs/SKILL.md", content: "" },
        ],
      }),
    ],
  }),
  valid("skill with executable file allowed", {
    skills: [
      skill({ allow_executable_files: true, files: [{ path: "run.sh", content: "#!/bin/sh", executable: true }] }),
    ],
  }),
  valid("skill flags", {
    skills: [
      skill({
        disable_model_invocation: true,
        allow_executable_files: false,
        files: [{ path: "a", content: "", executable: false }],
      }),
    ],
  }),
  valid("skill name of 64 characters", { skills: [skill({ name: "a".repeat(64) })] }),
  valid("skill body of 50,000 characters", { skills: [skill({ body: "b".repeat(50_000) })] }),
  valid("skill description of 1024 emoji (code points)", { skills: [skill({ description: "😀".repeat(1024) })] }),
  valid("skill file content of 200,000 characters", { skills: [file("big.txt", { content: "c".repeat(200_000) })] }),
  valid("skill file path of 255 characters", { skills: [file("p".repeat(255))] }),
  valid("dots that are not a .. segment", { skills: [file("..hidden/a..b/c..")] }),
  valid("external harness with permissions", {
    harness: {
      kind: "external_harness",
      permissions: { default_mode: "acceptEdits", allow: ["Read"], ask: ["Bash(git push:*)"], deny: ["WebFetch"] },
    },
  }),
  valid("service harness with extras", {
    harness: { kind: "service_harness", extras: { system: "base", append_system: "more" } },
  }),
  valid("harness default_mode plan", { harness: { permissions: { default_mode: "plan" } } }),
  valid("harness default_mode bypassPermissions", { harness: { permissions: { default_mode: "bypassPermissions" } } }),
  valid("runner allow", { runner: { permissions: { default: "allow" } } }),
  valid("runner ask", { runner: { kind: "sidecar", permissions: { default: "ask" }, extras: { timeout_s: 30 } } }),
  valid("runner deny", { runner: { permissions: { default: "deny" } } }),
  valid("runner allow_reads", { runner: { permissions: { default: "allow_reads" } } }),
  valid("daytona sandbox with full permissions", {
    sandbox: {
      kind: "daytona_sandbox",
      permissions: {
        network: { mode: "allowlist", allowlist: ["10.0.0.0/8", "fd00::/8"] },
        filesystem: "readonly",
        enforcement: "best_effort",
      },
      extras: { snapshot: "s" },
    },
  }),
  valid("empty sandbox permissions", { sandbox: { permissions: {} } }),
  valid("null sandbox permissions", { sandbox: { kind: "local", permissions: null } }),
  valid("network off", {
    sandbox: { permissions: { network: { mode: "off" }, filesystem: "off", enforcement: "strict" } },
  }),
];
