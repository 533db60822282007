import { describe, expect, it } from "vitest";
import { decidePermission, ruleMatches, type PermissionQuestion } from "./decide-permission";

const base: PermissionQuestion = {
  toolName: "bash",
  builtin: true,
  readOnly: false,
  input: { command: "ls -la" },
  rules: { allow: [], ask: [], deny: [] },
  runnerDefault: "allow_reads",
};
const ask = (overrides: Partial<PermissionQuestion>) => decidePermission({ ...base, ...overrides });

describe("decidePermission: the first rule of the order that applies", () => {
  it.each([
    // 1. the tool entry's permission beats everything after it
    [
      "entry allow over deny rules and a deny default",
      { entryPermission: "allow", rules: { allow: [], ask: [], deny: ["Bash"] }, runnerDefault: "deny" },
      "allow",
    ],
    ["entry deny over allow rules", { entryPermission: "deny", rules: { allow: ["Bash"], ask: [], deny: [] } }, "deny"],
    ["entry ask over an allow default", { entryPermission: "ask", runnerDefault: "allow" }, "ask"],
    // 2. the MCP server's permission
    ["mcp deny over allow rules", { mcpPermission: "deny", rules: { allow: ["Bash"], ask: [], deny: [] } }, "deny"],
    ["entry over mcp", { entryPermission: "allow", mcpPermission: "deny" }, "allow"],
    // 3. harness rules: deny beats ask beats allow
    ["deny beats ask and allow", { rules: { allow: ["Bash"], ask: ["Bash"], deny: ["Bash(ls:*)"] } }, "deny"],
    ["ask beats allow", { rules: { allow: ["Bash"], ask: ["bash(ls:*)"], deny: [] }, runnerDefault: "allow" }, "ask"],
    [
      "allow rule over an ask default",
      { rules: { allow: ["BASH"], ask: [], deny: [] }, runnerDefault: "ask" },
      "allow",
    ],
    [
      "a rule for another tool does not apply",
      { rules: { allow: ["Read"], ask: [], deny: ["Write"] }, runnerDefault: "allow" },
      "allow",
    ],
    // 4. the runner default
    ["allow_reads runs a read-only tool", { toolName: "read", readOnly: true }, "allow"],
    ["allow_reads asks for a write", { toolName: "write", readOnly: false }, "ask"],
    ["default allow", { runnerDefault: "allow" }, "allow"],
    ["default ask", { runnerDefault: "ask", readOnly: true }, "ask"],
    ["default deny", { runnerDefault: "deny", readOnly: true }, "deny"],
  ] as Array<[string, Partial<PermissionQuestion>, string]>)("%s", (_name, overrides, expected) => {
    expect(ask(overrides)).toBe(expected);
  });
});

describe("ruleMatches", () => {
  it.each([
    ["Bash(rm:*)", "bash", { command: "rm -rf /workspace" }, true],
    ["Bash(rm:*)", "bash", { command: "rm" }, true],
    ["Bash(rm:*)", "bash", { command: "rmdir x" }, false],
    ["Bash(rm:*)", "bash", { command: "echo rm" }, false],
    ["Read", "read", { path: "a" }, true],
    ["read", "READ", { path: "a" }, true],
    ["Write(src/**)", "write", { path: "src/deep/a.ts", content: "x" }, true],
    ["Write(src/**)", "write", { path: "docs/a.md", content: "x" }, false],
    ["Edit(a.txt)", "edit", { path: "a.txt" }, true],
    ["Edit(a.txt)", "edit", { path: "b.txt" }, false],
    ["Bash(ls:*)", "bash", {}, false],
  ] as Array<[string, string, unknown, boolean]>)("%s on %s %j = %s", (rule, toolName, input, expected) => {
    expect(ruleMatches(rule, { toolName, builtin: true, input })).toBe(expected);
  });

  it("a non-built-in name matches in its own case only", () => {
    expect(ruleMatches("lookup", { toolName: "lookup", builtin: false, input: {} })).toBe(true);
    expect(ruleMatches("Lookup", { toolName: "lookup", builtin: false, input: {} })).toBe(false);
  });
});
