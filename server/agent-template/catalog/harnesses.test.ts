import { describe, expect, it } from "vitest";
import { getHarness, listHarnesses } from "./harnesses";

const HOSTED = ["openai", "anthropic", "gemini", "mistral", "groq", "minimax", "together_ai", "openrouter"];

describe("harness catalog", () => {
  it("lists the three harnesses with versioned slugs", () => {
    expect(listHarnesses().map((h) => [h.kind, h.slug])).toEqual([
      ["core_harness", "svc:harness:core_harness:v0"],
      ["service_harness", "svc:harness:service_harness:v0"],
      ["external_harness", "svc:harness:external_harness:v0"],
    ]);
  });

  it("returns undefined for an unknown harness", () => {
    expect(getHarness("claude")).toBeUndefined();
    expect(getHarness("toString")).toBeUndefined();
  });

  it.each(["core_harness", "service_harness"])("%s reaches eight hosted providers, direct and custom", (kind) => {
    const harness = getHarness(kind);
    expect(harness?.providers.map((p) => p.provider)).toEqual(HOSTED);
    for (const provider of harness?.providers ?? []) {
      expect(provider.deployments).toEqual(["direct", "custom"]);
      expect(provider.connection_modes).toEqual(["managed", "self_managed"]);
      expect(provider.models.length).toBeGreaterThanOrEqual(3);
    }
    expect(harness?.model_selection.kind).toBe("provider_model");
    expect(harness?.gates_permissions).toBe(false);
  });

  it.each(["core_harness", "service_harness"])("%s has seven built-ins, four of them read-only", (kind) => {
    expect(getHarness(kind)?.builtin_tools).toEqual([
      { name: "read", read_only: true },
      { name: "bash", read_only: false },
      { name: "edit", read_only: false },
      { name: "write", read_only: false },
      { name: "grep", read_only: true },
      { name: "find", read_only: true },
      { name: "ls", read_only: true },
    ]);
  });

  it("external harness reaches anthropic four ways and selects models by alias", () => {
    const harness = getHarness("external_harness");
    expect(harness?.builtin_tools).toEqual([]);
    expect(harness?.gates_permissions).toBe(true);
    expect(harness?.providers).toEqual([
      {
        provider: "anthropic",
        display_name: "Anthropic",
        deployments: ["direct", "custom", "bedrock", "vertex"],
        connection_modes: ["managed", "self_managed"],
        models: [],
      },
    ]);
    expect(harness?.model_selection).toMatchObject({
      kind: "alias",
      aliases: ["default", "sonnet", "haiku", "opus"],
      default: "default",
    });
  });

  it.each(["core_harness", "service_harness"])(
    "%s connects to user MCP servers over http and lays skills in the workspace",
    (kind) => {
      expect(getHarness(kind)?.mcp).toEqual({
        user_servers: { connection_types: ["http"], credentials: ["none", "header_secret_refs"] },
      });
      expect(getHarness(kind)?.skills).toEqual({ path: "skills/<name>/SKILL.md" });
    },
  );

  it("the external harness reaches user MCP servers (over agenta-tools) and claims no skills (they are refused there)", () => {
    expect(getHarness("external_harness")?.mcp).toEqual(getHarness("core_harness")?.mcp);
    expect(getHarness("external_harness")?.skills).toBeUndefined();
  });

  it("lists the external harness as available only where the deployment enables it", () => {
    expect(getHarness("external_harness")).toMatchObject({
      available: false,
      unavailable_reason: expect.stringContaining("EXTERNAL_HARNESS=enabled"),
    });
    expect(getHarness("external_harness", { externalHarness: true })).toMatchObject({ available: true });
    expect(getHarness("external_harness", { externalHarness: true })).not.toHaveProperty("unavailable_reason");
    expect(listHarnesses().map((h) => [h.kind, h.available])).toEqual([
      ["core_harness", true],
      ["service_harness", true],
      ["external_harness", false],
    ]);
  });

  it("hands out copies the caller may change", () => {
    getHarness("core_harness")?.providers.pop();
    expect(getHarness("core_harness")?.providers).toHaveLength(8);
  });
});
