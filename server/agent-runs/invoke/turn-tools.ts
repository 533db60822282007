import type { AgentTemplate } from "@/server/agent-template";
import type { Principal } from "@/server/auth";
import type { AppContext } from "@/server/core/app-context";
import type { Sandbox } from "@/server/sandbox";
import type { BatchOutputs } from "@/server/streams";
import { serviceToolRules } from "../harnesses";
import { connectMcpTools } from "../mcp";
import { ApprovalStore } from "../permissions/approval-store";
import { guardedFetchFor } from "../providers";
import type { RunAgent } from "../run-agent";
import type { TraceContext } from "../trace-context";
import { defaultToolRegistry } from "../tools/default-registry";
import type { BuiltTools } from "../tools/tool-types";
import type { InvokeRequest } from "./invoke-request";
import type { NestedTurnRequest } from "./run-nested";
import type { TurnSecrets } from "./turn-secrets";

const registry = defaultToolRegistry();

export interface TurnToolsInput {
  app: AppContext;
  principal: Principal;
  template: AgentTemplate;
  agent: RunAgent;
  sessionId: string;
  sandbox: Sandbox;
  secrets: TurnSecrets;
  flags: InvokeRequest["flags"];
  trace: TraceContext;
  depth: number;
  /** The run the turn is recorded as, if it is: its approval requests name it, its nested runs are its children. */
  runId?: string;
  /** Approval requests answered out of band that this turn settles (`PrepareOptions.claimedApprovals`). */
  claimedApprovals?: readonly string[];
  /** The turn's activity signal, shared with nested runs (their events keep the idle limit from firing). */
  activity: EventTarget;
  /** Runs a nested turn (reference tools): run-nested.ts, wired by the turn's preparation. */
  runNested: (request: NestedTurnRequest) => Promise<BatchOutputs>;
}

/**
 * The turn's tools: the template's entries through the registry (gated by the run's policy) and
 * the MCP servers' tools beside them. `mcp` is connected first and closed again if building fails.
 */
export async function buildTurnTools(
  input: TurnToolsInput,
): Promise<{ tools: BuiltTools; mcp: Awaited<ReturnType<typeof connectMcpTools>> }> {
  const { app, principal, template, sessionId, sandbox, secrets, trace, depth, runId, activity } = input;
  const { projectId } = principal;
  const { commandTimeoutMs, toolResultMaxBytes, codeToolMemoryMb } = app.config.sandbox;
  const external = template.harness.kind === "external_harness";
  const mcp = await connectMcpTools(template.mcps, {
    fetch: guardedFetchFor(app.config.egressAllowlist),
    secretValue: secrets.secretValue,
    connectTimeoutMs: app.config.mcp.connectTimeoutMs,
    callTimeoutMs: app.config.mcp.callTimeoutMs,
    resultMaxBytes: toolResultMaxBytes,
  });
  try {
    const tools = await registry.build(
      external ? externalHarnessTools(template) : template.tools,
      {
        projectId,
        sessionId,
        sandbox,
        resultMaxBytes: toolResultMaxBytes,
        codeLimits: { timeoutMs: commandTimeoutMs, memoryMb: codeToolMemoryMb },
        policy: {
          rules: external ? serviceToolRules(template.harness.permissions) : template.harness.permissions,
          runnerDefault: template.runner.permissions.default,
          unattended: input.flags?.unattended ?? undefined,
        },
        approvals: new ApprovalStore(
          app.db,
          projectId,
          sessionId,
          app.config.agentRuns.approvalTtlMs,
          () => app.now(),
          input.runId,
          input.claimedApprovals,
        ),
        secretValue: secrets.codeSecretValue,
        run: {
          app,
          principal,
          agent: input.agent,
          depth,
          traceId: trace.traceId,
          activity,
          runNested: (request) =>
            input.runNested({
              ...request,
              traceId: trace.traceId,
              depth: depth + 1,
              activity,
              parentRunId: runId,
            }),
        },
      },
      mcp.tools,
    );
    return { tools, mcp };
  } catch (error) {
    await mcp.close();
    throw error;
  }
}

/** The tools Claude Code is served over `agenta-tools`; built-in entries have no effect there (the validation warns). */
function externalHarnessTools(template: AgentTemplate): AgentTemplate["tools"] {
  return template.tools.filter((entry) => entry.type !== "builtin");
}
