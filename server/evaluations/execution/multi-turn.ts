import type { Principal } from "@/server/auth";
import type { AppContext } from "@/server/core/app-context";
import type { BatchMessage } from "@/server/streams";
import type { ResolvedAgent } from "@/server/agent-runs";
import { runAgentTurn, type AgentTarget } from "./agent-runner";
import type { CellOutcome } from "./invocation-outcome";

export interface Turn {
  input: string;
  expected?: unknown;
}

/** A multi-turn testcase has a `turns` column: `[{input, expected?}, ...]`, one entry per user turn. */
export function isMultiTurn(columns: Record<string, unknown>): columns is { turns: Turn[] } {
  return (
    Array.isArray(columns.turns) &&
    columns.turns.length > 0 &&
    columns.turns.every((t) => t && typeof (t as Turn).input === "string")
  );
}

const replyText = (messages: BatchMessage[]) =>
  messages
    .filter((m) => m.role === "assistant" && typeof m.content === "string")
    .map((m) => m.content as string)
    .join("");

/**
 * Plays a conversation turn by turn: each turn sends the conversation so far (the agent's own
 * earlier replies, not the expected ones) plus the next user message. The output keeps, per
 * turn, the input, the expected reply and the agent's reply, so an evaluator can score each
 * turn; `messages` holds every output message of every turn in order.
 */
export async function runMultiTurn(
  app: AppContext,
  principal: Principal,
  agent: AgentTarget,
  columns: { turns: Turn[] },
  signal: AbortSignal,
  resolved?: () => Promise<ResolvedAgent>,
): Promise<CellOutcome> {
  const history: { role: string; content: string }[] = [];
  const turns: { input: string; expected?: unknown; reply: string; trace_id?: string }[] = [];
  const messages: BatchMessage[] = [];
  let latencyMs = 0;
  let tokens = 0;
  let costUsd = 0;
  let traceId: string | undefined;
  for (const turn of columns.turns) {
    history.push({ role: "user", content: turn.input });
    const outcome = await runAgentTurn(app, principal, agent, [...history], signal, resolved);
    latencyMs += outcome.latencyMs;
    traceId = outcome.traceId ?? traceId;
    if (outcome.status === "failure") {
      return {
        ...outcome,
        error: { ...outcome.error, message: `turn ${turns.length + 1}: ${outcome.error.message}` },
        latencyMs,
      };
    }
    const produced = outcome.outputs as BatchMessage[];
    const reply = replyText(produced);
    messages.push(...produced);
    history.push({ role: "assistant", content: reply });
    turns.push({
      input: turn.input,
      ...(turn.expected !== undefined ? { expected: turn.expected } : {}),
      reply,
      ...(outcome.traceId ? { trace_id: outcome.traceId } : {}),
    });
    tokens += outcome.tokens ?? 0;
    costUsd += outcome.costUsd ?? 0;
  }
  return { status: "success", outputs: { turns, messages }, traceId, latencyMs, tokens, costUsd };
}
