import type { Tool } from "ai";
import type { RunnerPermissionDefault, ToolEntry } from "@/server/agent-template";
import type { Principal } from "@/server/auth";
import type { AppContext } from "@/server/core/app-context";
import type { Sandbox } from "@/server/sandbox";
import type { BatchOutputs, NativeEvent } from "@/server/streams";
import type { ApprovalStore } from "../permissions/approval-store";
import type { HarnessRules, Permission } from "../permissions/decide-permission";
import type { RunAgent } from "../run-agent";
import type { CodeLimits } from "./code/code-runner";

/**
 * The types every tool factory, the registry, the permission gate and the harnesses share: types
 * only, so importing them never pulls in the registry (or closes an import cycle through it).
 */

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
