import type { Tool } from "ai";
import type { RunnerPermissionDefault, ToolEntry, ToolType } from "@/server/agents";
import { BadRequestError } from "@/server/core/errors";
import type { Principal } from "@/server/auth";
import type { AppContext } from "@/server/http/app-context";
import type { Sandbox } from "@/server/sandbox";
import type { CodeLimits } from "./code/code-runner";
import type { BatchOutputs, NativeEvent } from "@/server/streams";
import type { RunAgent } from "../run-types";
import { decidePermission, type ApprovalStore, type HarnessRules, type Permission } from "../permissions";

/** Where a tool runs: `client` tools pause the turn for the caller; `server` tools execute here. */
export type ToolKind = "client" | "server";

export interface RegisteredTool {
  name: string;
  kind: ToolKind;
  /** The AI SDK tool; a client tool has no `execute`, so the loop stops at its call. */
  tool: Tool;
  render?: unknown;
  /** Read-hinted for `allow_reads`; absent counts as a write. */
  readOnly?: boolean;
  /** Built-in names match permission rules in any case. */
  builtin?: boolean;
  /** An MCP tool's server `policy.permission` (the second slot of the permission order). */
  mcpPermission?: Permission | null;
  /** A server tool's body without the permission gate: what an approved call runs. */
  run?: (input: unknown, signal?: AbortSignal, toolCallId?: string) => Promise<unknown>;
  /** Stream events a successful result announces besides tool_result (a commit's data-committed-revision). */
  resultEvents?: (output: unknown) => NativeEvent[];
  /** The permission of one call of this tool (server tools, when the run has a policy). */
  permissionFor?: (input: unknown) => Permission;
}

/** What an unattended run does with a call that would ask: deny it, or fail the run. */
export type UnattendedMode = "deny" | "fail";

export interface ToolPolicy {
  rules: HarnessRules;
  runnerDefault: RunnerPermissionDefault;
  unattended?: UnattendedMode;
}

export interface ToolBuildContext {
  projectId: string;
  sessionId: string;
  /** The session's sandbox; built-in tools need one. */
  sandbox?: Sandbox;
  resultMaxBytes?: number;
  /** Time limit and memory cap of one code tool call. */
  codeLimits?: CodeLimits;
  /** The run's permission policy; without one, server tools run ungated. */
  policy?: ToolPolicy;
  approvals?: ApprovalStore;
  /** A vault secret's value by slug or name (code tools' `secrets`); undefined when absent. */
  secretValue?: (name: string) => Promise<string | undefined>;
  /** The run's scope; reference, platform and gateway tools need one. */
  run?: RunScope;
}

/** A workflow revision run as a nested batch turn of the same trace (reference tools). */
export interface NestedRunRequest {
  revisionId: string;
  /** The nested run's `data.inputs.messages`, read as native messages. */
  messages: unknown[];
  /** The calling tool's `execute_tool` span: the nested `invoke_agent` span's parent. */
  parentSpanId: string;
  signal?: AbortSignal;
}

/**
 * The run a tool is built for: who runs it (reference, platform and gateway tools act in the
 * caller's project as the caller), which agent, how deep in nested runs, in which trace.
 */
export interface RunScope {
  app: AppContext;
  principal: Principal;
  agent: RunAgent;
  /** 0 for a run a client started; a reference tool's workflow runs one deeper than its caller. */
  depth: number;
  traceId: string;
  /** The turn's activity signal: a nested run's events keep the calling turn's idle limit from firing. */
  activity: EventTarget;
  /** The invoke path, given by the invoke layer (tools cannot import it without a cycle). */
  runNested: (request: NestedRunRequest) => Promise<BatchOutputs>;
}

export type ToolFactory = (entry: ToolEntry, context: ToolBuildContext) => RegisteredTool | Promise<RegisteredTool>;

export interface BuiltTools {
  byName: Map<string, RegisteredTool>;
  toolSet: Record<string, Tool>;
  policy?: ToolPolicy;
  approvals?: ApprovalStore;
}

export const DENIED_BY_POLICY = (name: string) => `The tool policy does not allow "${name}"; the call was refused without running.`;
export const DENIED_UNATTENDED = (name: string) => `"${name}" needs a person's approval and this run is unattended (flags.unattended: deny); the call was refused without running.`;

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
      if (byName.has(built.name)) throw new BadRequestError(`tools[${index}]: a tool named "${built.name}" is already declared`, "duplicate_tool");
      byName.set(built.name, context.policy && built.kind === "server" ? gated(built, entry.type === "builtin" ? null : entry.permission, context.policy) : built);
    }
    for (const built of joined) {
      if (byName.has(built.name)) throw new BadRequestError(`mcps: the tool name "${built.name}" is already taken by tools[] or another MCP server; rename the server or the tool`, "duplicate_tool");
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
