import { describe, expect, it } from "vitest";
import { formatContextWindow, formatPrice } from "@/components/editor/model-format";
import { FALLBACK_OPTIONS, readTemplateOptions } from "@/components/editor/schema-options";
import {
  addTool,
  builtinNamesIn,
  readText,
  readTools,
  removeTool,
  summarizeTool,
  writeModel,
  writeText,
  writeToolField,
} from "@/components/editor/template-fields";
import { agentTemplateJsonSchema, defaultAgentTemplate } from "@/server/agent-template";

const base = defaultAgentTemplate() as Record<string, unknown>;

describe("form fields over the template", () => {
  it("reads fields, undefined when omitted", () => {
    expect(readText(base, "model")).toBe("gpt-5-mini");
    expect(readText(base, "runnerDefault")).toBe("allow_reads");
    expect(readText({}, "agentsMd")).toBeUndefined();
  });

  it("writes fields without touching the rest", () => {
    const next = writeModel(base, "anthropic", "claude-sonnet-4-5");
    expect(next.llm).toEqual({ ...(base.llm as object), provider: "anthropic", model: "claude-sonnet-4-5" });
    expect(next.tools).toBe(base.tools);
    expect(writeText({}, "sandboxKind", "local")).toEqual({ sandbox: { kind: "local" } });
    expect(writeText(base, "provider", null)).toMatchObject({ llm: { provider: null } });
  });

  it("adds, edits and removes tools", () => {
    let t = addTool({}, { type: "client", name: "lookup" });
    t = writeToolField(t, 0, "permission", "ask");
    expect(readTools(t)).toEqual([{ type: "client", name: "lookup", permission: "ask" }]);
    t = writeToolField(t, 0, "permission", undefined);
    expect(readTools(t)).toEqual([{ type: "client", name: "lookup" }]);
    expect(readTools(removeTool(t, 0))).toEqual([]);
    expect(builtinNamesIn(base)).toEqual(new Set(["read", "bash", "edit", "write"]));
  });

  it("summarizes every tool type", () => {
    expect(summarizeTool({ type: "builtin", name: "read" })).toEqual({
      type: "builtin",
      label: "read",
      permission: null,
    });
    expect(
      summarizeTool({ type: "gateway", integration: "github", action: "create_issue", permission: "ask" }),
    ).toEqual({
      type: "gateway",
      label: "github · create_issue",
      permission: "ask",
    });
    expect(summarizeTool({ type: "reference", slug: "helper" }).label).toBe("helper");
    expect(summarizeTool({ type: "platform", op: "discover_tools" }).label).toBe("discover_tools");
    expect(summarizeTool({ type: "client" }).label).toBe("Unnamed");
    expect(summarizeTool("read").type).toBe("invalid");
  });
});

describe("options from the catalog schema", () => {
  it("reads enums, defaults and descriptions", () => {
    const options = readTemplateOptions(agentTemplateJsonSchema());
    expect(options.runnerDefaults).toEqual(["allow", "ask", "deny", "allow_reads"]);
    expect(options.harnessKinds).toEqual(["core_harness", "service_harness", "external_harness"]);
    expect(options.sandboxKinds).toEqual(["local", "daytona_sandbox"]);
    expect(options.toolPermissions).toEqual(["allow", "ask", "deny"]);
    expect(options.builtinNames).toEqual(["read", "bash", "edit", "write", "grep", "find", "ls"]);
    expect(options.codeRuntimes).toEqual(["python", "node"]);
    expect(options.defaults).toMatchObject({
      runnerDefault: "allow_reads",
      harnessKind: "core_harness",
      sandboxKind: "local",
      codeRuntime: "python",
    });
    expect(options.defaults.agentsMd).toContain("greeting");
    expect(options.descriptions.runnerDefault).toContain("allow_reads");
  });

  it("falls back when the schema is missing", () => {
    expect(readTemplateOptions(undefined)).toEqual(FALLBACK_OPTIONS);
  });

  it("formats model facts", () => {
    expect(formatContextWindow(400_000)).toBe("400K");
    expect(formatContextWindow(1_047_576)).toBe("1M");
    expect(formatContextWindow(131_072)).toBe("131K");
    expect(formatContextWindow(1_500_000)).toBe("1.5M");
    expect(formatPrice(1.25)).toBe("$1.25");
    expect(formatPrice(10)).toBe("$10");
    expect(formatPrice(0.05)).toBe("$0.05");
  });
});

describe("key order of the JSON view", () => {
  it("follows the schema's order at every level, unknown keys last", async () => {
    const { orderLikeSchema } = await import("@/components/editor/schema-key-order");
    const jsonbOrder = {
      llm: { extras: {}, model: "m", provider: "openai", connection: null },
      tools: [
        { name: "read", type: "builtin" },
        { name: "x", type: "client", description: "d" },
      ],
      runner: { kind: "sidecar", extras: {}, permissions: { default: "ask" } },
      zzz: 1,
      instructions: { agents_md: "hi" },
    };
    const ordered = orderLikeSchema(jsonbOrder, agentTemplateJsonSchema()) as Record<string, Record<string, unknown>>;
    expect(Object.keys(ordered)).toEqual(["instructions", "llm", "tools", "runner", "zzz"]);
    expect(Object.keys(ordered.llm)).toEqual(["model", "provider", "connection", "extras"]);
    expect((ordered.tools as unknown as object[]).map((t) => Object.keys(t))).toEqual([
      ["type", "name"],
      ["type", "name", "description"],
    ]);
    expect(ordered).toEqual(jsonbOrder);
  });
});
