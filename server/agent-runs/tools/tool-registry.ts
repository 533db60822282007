import type { Tool } from "ai";
import type { ToolEntry, ToolType } from "@/server/agent-template";
import { BadRequestError } from "@/server/core/errors";
import { decidePermission, type Permission } from "../permissions/decide-permission";
import type { BuiltTools, RegisteredTool, ToolBuildContext, ToolFactory, ToolPolicy } from "./tool-types";

export const DENIED_BY_POLICY = (name: string) =>
  `The tool policy does not allow "${name}"; the call was refused without running.`;
export const DENIED_UNATTENDED = (name: string) =>
  `"${name}" needs a person's approval and this run is unattended (flags.unattended: deny); the call was refused without running.`;

/**
 * The one seam through which tool types plug into a run. The stream code only sees tool_call,
 * tool_result and interaction_request events, so a new type (builtins, MCP, skills) registers a
 * factory here and nothing else changes. Server tools are gated here too: `deny` refuses the
 * call, `ask` raises the AI SDK's approval request, which the harness turns into a pause.
 */
export class ToolRegistry {
  private readonly factories = new Map<ToolType, ToolFactory>();

  register(type: ToolType, factory: ToolFactory): this {
    this.factories.set(type, factory);
    return this;
  }

  /**
   * Builds every entry before the run starts, so a refusal is a 400, not a stream error.
   * `joined` are tools that come from elsewhere than `tools[]` (MCP servers' tools): they share
   * the name space and the permission gate.
   */
  async build(entries: ToolEntry[], context: ToolBuildContext, joined: RegisteredTool[] = []): Promise<BuiltTools> {
    const byName = new Map<string, RegisteredTool>();
    for (const [index, entry] of entries.entries()) {
      const factory = this.factories.get(entry.type);
      if (!factory) {
        throw new BadRequestError(
          `tools[${index}]: tools of type "${entry.type}" are not available in this deployment; supported: ${[...this.factories.keys()].join(", ")}`,
          "unsupported_tool",
        );
      }
      const built = await factory(entry, context);
      if (byName.has(built.name))
        throw new BadRequestError(
          `tools[${index}]: a tool named "${built.name}" is already declared`,
          "duplicate_tool",
        );
      byName.set(
        built.name,
        context.policy && built.kind === "server"
          ? gated(built, entry.type === "builtin" ? null : entry.permission, context.policy)
          : built,
      );
    }
    for (const built of joined) {
      if (byName.has(built.name))
        throw new BadRequestError(
          `mcps: the tool name "${built.name}" is already taken by tools[] or another MCP server; rename the server or the tool`,
          "duplicate_tool",
        );
      byName.set(built.name, context.policy && built.kind === "server" ? gated(built, null, context.policy) : built);
    }
    return {
      byName,
      toolSet: Object.fromEntries([...byName].map(([name, registered]) => [name, registered.tool])),
      policy: context.policy,
      approvals: context.approvals,
    };
  }
}

function gated(built: RegisteredTool, entryPermission: Permission | null, policy: ToolPolicy): RegisteredTool {
  const permissionFor = (input: unknown): Permission =>
    decidePermission({
      toolName: built.name,
      builtin: Boolean(built.builtin),
      readOnly: Boolean(built.readOnly),
      input,
      entryPermission,
      mcpPermission: built.mcpPermission,
      rules: policy.rules,
      runnerDefault: policy.runnerDefault,
    });
  const execute = built.tool.execute;
  if (!execute) return built;
  const tool: Tool = {
    ...built.tool,
    // An unattended `deny` run never asks: the call reaches execute and is refused there.
    needsApproval: (input: unknown) => permissionFor(input) === "ask" && policy.unattended !== "deny",
    execute: (input: unknown, options: Parameters<typeof execute>[1]) => {
      const permission = permissionFor(input);
      if (permission === "deny") throw new Error(DENIED_BY_POLICY(built.name));
      if (permission === "ask") throw new Error(DENIED_UNATTENDED(built.name));
      return execute(input, options);
    },
  } as Tool;
  return { ...built, tool, permissionFor };
}
