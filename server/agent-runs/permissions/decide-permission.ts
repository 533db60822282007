import type { RunnerPermissionDefault } from "@/server/agent-template";
import { globMatch } from "@/server/core/glob-match";

export type Permission = "allow" | "ask" | "deny";

export interface HarnessRules {
  allow: string[];
  ask: string[];
  deny: string[];
}

export interface PermissionQuestion {
  toolName: string;
  /** Built-in names match rules in any case (`Bash(rm:*)` gates `bash`). */
  builtin: boolean;
  /** Read-hinted: runs under `allow_reads`; a missing hint counts as a write. */
  readOnly: boolean;
  input: unknown;
  /** The tool entry's own `permission` (dropped on built-ins at validation). */
  entryPermission?: Permission | null;
  /** The MCP server's policy permission, for MCP tools. */
  mcpPermission?: Permission | null;
  rules: HarnessRules;
  runnerDefault: RunnerPermissionDefault;
}

/**
 * The permission of one tool call, settled by the first of these that applies: the tool entry's
 * `permission`; the MCP server's; the `harness.permissions` rules (deny beats ask beats allow);
 * `runner.permissions.default`.
 */
export function decidePermission(question: PermissionQuestion): Permission {
  if (question.entryPermission) return question.entryPermission;
  if (question.mcpPermission) return question.mcpPermission;
  const matches = (list: string[]) => list.some((rule) => ruleMatches(rule, question));
  if (matches(question.rules.deny)) return "deny";
  if (matches(question.rules.ask)) return "ask";
  if (matches(question.rules.allow)) return "allow";
  switch (question.runnerDefault) {
    case "allow_reads":
      return question.readOnly ? "allow" : "ask";
    default:
      return question.runnerDefault;
  }
}

/**
 * `Name` matches every call of the tool; `Name(spec)` matches when the call's first string
 * argument does: `prefix:*` by prefix (`Bash(rm:*)` matches `rm -rf x`), a glob (`Write(src/**)`)
 * in linear time, so no rule can stall the process on a long argument; anything else exactly.
 */
export function ruleMatches(
  rule: string,
  question: Pick<PermissionQuestion, "toolName" | "builtin" | "input">,
): boolean {
  const parsed = /^([^()]+?)(?:\((.*)\))?$/s.exec(rule.trim());
  if (!parsed) return false;
  const [, name, spec] = parsed;
  const sameName = question.builtin
    ? name.toLowerCase() === question.toolName.toLowerCase()
    : name === question.toolName;
  if (!sameName) return false;
  if (spec === undefined || spec === "" || spec === "*") return true;
  const argument = firstString(question.input);
  if (argument === undefined) return false;
  if (spec.endsWith(":*")) {
    const prefix = spec.slice(0, -2);
    return argument === prefix || (argument.startsWith(prefix) && /\s/.test(argument.charAt(prefix.length)));
  }
  if (/[*?[{]/.test(spec)) return globMatch(argument, spec);
  return argument === spec;
}

function firstString(input: unknown): string | undefined {
  if (typeof input === "string") return input;
  if (input && typeof input === "object") {
    for (const value of Object.values(input)) if (typeof value === "string") return value;
  }
  return undefined;
}
