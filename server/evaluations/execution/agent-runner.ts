import type { Principal } from "@/server/auth";
import type { AppContext } from "@/server/core/app-context";
import {
  beginTurn,
  prepareTurn,
  resolveAgent,
  traceContext,
  type InvokeRequest,
  type ResolvedAgent,
} from "@/server/agent-runs";
import { foldBatch, type BatchMessage, type NativeEvent } from "@/server/streams";
import { invocationOutcome, isRetryableMessage, type CellOutcome, type ToolCallRecord } from "./invocation-outcome";

/** An agent to run: a workflow revision (by reference, as invoke resolves it) or an inline template. */
export type AgentTarget = { workflowRevisionId: string } | { template: unknown };

/** The invoke body of a turn of `target` (nobody can approve a tool call during an evaluation). */
function invokeBody(target: AgentTarget, messages: unknown[]): InvokeRequest {
  return {
    ...("workflowRevisionId" in target ? { references: { workflow_revision: { id: target.workflowRevisionId } } } : {}),
    flags: { unattended: "deny" },
    data: { inputs: { messages }, ...("template" in target ? { parameters: { agent: target.template } } : {}) },
  };
}

/** What a turn of `target` runs: template and connection, as every turn of it would resolve them. */
export function resolveAgentTarget(app: AppContext, principal: Principal, target: AgentTarget): Promise<ResolvedAgent> {
  return resolveAgent(app, principal, invokeBody(target, []));
}

/**
 * One agent turn through the path of `POST /services/agent/v0/invoke`: prepare (template,
 * sandbox, connection, tools), the turn engine, the trace. Nobody can approve a tool call during
 * an evaluation, so a call that would ask is refused (`unattended: deny`) and the model is told.
 * `resolved` gives the template and connection resolved once for many turns (an evaluation run's
 * cells); without it the turn resolves them, as invoke does.
 */
export async function runAgentTurn(
  app: AppContext,
  principal: Principal,
  target: AgentTarget,
  messages: unknown[],
  signal: AbortSignal,
  resolved?: () => Promise<ResolvedAgent>,
): Promise<CellOutcome> {
  const started = performance.now();
  const trace = traceContext(null);
  const body = invokeBody(target, messages);
  const events: NativeEvent[] = [];
  try {
    const input = await prepareTurn(app, principal, body, "native", {
      trace,
      depth: 0,
      resolved: resolved ? await resolved() : undefined,
    });
    const turn = beginTurn(app, input, trace, signal);
    const reader = turn.events.getReader();
    for (let next = await reader.read(); !next.done; next = await reader.read()) events.push(next.value);
    const record = await turn.record;
    const folded = foldBatch(events);
    const latencyMs = performance.now() - started;
    const failed =
      record.error ?? (folded.stop_reason === "error" ? (folded.errors ?? ["the run failed"]).join("; ") : undefined);
    return invocationOutcome(
      { signal, traceId: trace.traceId, latencyMs, failure: failed },
      {
        outputs: folded.messages,
        tokens: record.usage?.total,
        costUsd: record.usage?.cost,
        toolCalls: toolCallsOf(folded.messages),
      },
    );
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      status: "failure",
      error: { code: "invocation_failed", message, retryable: isRetryableMessage(message) },
      latencyMs: performance.now() - started,
    };
  }
}

/** Tool calls in call order, each with its result when the run had one. */
export function toolCallsOf(messages: BatchMessage[]): ToolCallRecord[] {
  const calls: ToolCallRecord[] = [];
  const byId = new Map<string, ToolCallRecord>();
  for (const m of messages) {
    if (m.role !== "tool" || !m.tool_call_id) continue;
    const known = byId.get(m.tool_call_id);
    if (m.tool_name && !known) {
      const call: ToolCallRecord = { name: m.tool_name, input: m.input };
      byId.set(m.tool_call_id, call);
      calls.push(call);
    } else if (known) {
      known.output = m.content;
      if (m.is_error) known.isError = true;
    }
  }
  return calls;
}
