import type { Principal } from "@/server/auth";
import type { AppContext } from "@/server/core/app-context";
import { newId } from "@/server/core/ids";
import { driveDoorTurn, messagesOfEvents, prepareTurn, traceContext, type InvokeRequest } from "@/server/agent-runs";
import type { ExposedEntry } from "@/server/exposure";
import type { NativeEvent, NativeMessage } from "@/server/streams";
import type { ToolArguments } from "./tool-input";

export type ApprovalDecision = "approve" | "deny";

export interface AgentToolResult {
  text: string;
  status: "finished" | "failed" | "cancelled" | "needs_approval";
  run_id: string;
  session_id: string;
  revision_id?: string;
  version?: string;
  /** The runner asked for approval: the call it asks about. */
  approval?: { tool: string; input: unknown };
  error?: string;
  /** The playground page of the agent's runs (a path), where a paused run is approved. */
  runsPage: string;
}

export interface ToolCallContext {
  /** The MCP session: the sticky key of a split environment, and the agent session when the call names none. */
  mcpSessionId?: string;
  traceparent: string | null;
  /** Aborted when the client cancels the request: the run is cancelled. */
  signal: AbortSignal;
  /** Called as the turn makes progress (a tool call, a text block), for MCP progress notifications. */
  progress(step: number, message: string): void;
  /**
   * Asks the person in the client (MCP elicitation), when the client can be asked: their decision,
   * or undefined when they dismissed it or did not answer in time.
   */
  elicit?(question: string): Promise<ApprovalDecision | undefined>;
}

/** An approval request the turn paused on. */
interface PendingApproval {
  id: string;
  toolCallId: string;
  toolName: string;
  input: unknown;
}

/**
 * One call of an exposed agent, through the runner's own path as invoke and the OpenAI door take
 * it: prepared (budgets, rate limits, allowlists, the split chosen sticky on the MCP session),
 * begun (traced) and driven as a run of origin `mcp` (recorded, redacted, listed, cancellable by
 * id). The client's cancellation cancels the run. A call the runner policy asks about pauses the
 * run, as on invoke; a client that can be asked (`elicit`) is, and its answer continues the run
 * as invoke's answer does (a new run of the session whose input answers the approval, recording
 * the run it continues); otherwise the paused run is the answer.
 */
export async function callAgentTool(
  app: AppContext,
  principal: Principal,
  target: ExposedEntry,
  args: ToolArguments,
  context: ToolCallContext,
): Promise<AgentToolResult> {
  let messages: NativeMessage[] = [{ role: "user", content: [{ type: "text", text: args.message }] }];
  let sessionId = args.session_id ?? undefined;
  let continuesRunId: string | undefined;
  const texts: string[] = [];
  for (;;) {
    const turn = await runTurn(app, principal, target, { messages, sessionId, continuesRunId }, context);
    if (turn.result.text) texts.push(turn.result.text);
    const result = { ...turn.result, text: texts.join("\n\n") };
    if (result.status !== "needs_approval" || !context.elicit) return result;
    const answers: Array<{ approval: PendingApproval; approved: boolean }> = [];
    for (const approval of turn.approvals) {
      const decision = await context.elicit(
        `${target.name} wants to call ${approval.toolName} with ${JSON.stringify(approval.input)}. Approve this call?`,
      );
      if (!decision) return result;
      answers.push({ approval, approved: decision === "approve" });
    }
    messages = [...messages, ...answered(messagesOfEvents(turn.events), answers)];
    sessionId = result.session_id;
    continuesRunId = result.run_id;
  }
}

/** The turn so far with the person's answers: each approval's result block follows its call, as invoke's input carries it. */
function answered(
  turn: NativeMessage[],
  answers: Array<{ approval: PendingApproval; approved: boolean }>,
): NativeMessage[] {
  const last = turn.at(-1);
  if (!last) return turn;
  const results = answers.map(({ approval, approved }) => ({
    type: "tool_result" as const,
    toolCallId: approval.toolCallId,
    toolName: approval.toolName,
    approved,
    interactionToken: approval.id,
    output: { approved, interactionToken: approval.id },
  }));
  return [...turn.slice(0, -1), { ...last, content: [...last.content, ...results] }];
}

async function runTurn(
  app: AppContext,
  principal: Principal,
  target: ExposedEntry,
  turnInput: { messages: NativeMessage[]; sessionId?: string; continuesRunId?: string },
  context: ToolCallContext,
): Promise<{ result: AgentToolResult; events: NativeEvent[]; approvals: PendingApproval[] }> {
  const trace = traceContext(context.traceparent);
  const body: InvokeRequest = {
    session_id: turnInput.sessionId,
    references: { workflow: { slug: target.slug }, environment: { slug: target.environment } },
    data: { inputs: { messages: turnInput.messages } },
  };
  const runId = newId();
  const splitKey = context.mcpSessionId ?? turnInput.sessionId;
  const input = await prepareTurn(app, principal, body, "native", { trace, depth: 0, runId, splitKey });
  const { events } = driveDoorTurn(
    app,
    input,
    trace,
    { id: runId, projectId: principal.projectId, origin: "mcp", continuesRunId: turnInput.continuesRunId },
    context.signal,
  );
  const refs = input.agent.references ?? {};
  const revision = refs.workflow_revision;
  const result: AgentToolResult = {
    runsPage: `/agents/${refs.workflow?.id}/variants/${refs.workflow_variant?.id}/runs`,
    text: "",
    status: "finished",
    run_id: runId,
    session_id: input.sessionId,
    ...(revision && { revision_id: revision.id, version: revision.version ?? undefined }),
  };
  const seen: NativeEvent[] = [];
  const approvals: PendingApproval[] = [];
  const texts: string[] = [];
  let current = "";
  let step = 0;
  for await (const event of events as unknown as AsyncIterable<NativeEvent>) {
    seen.push(event);
    switch (event.type) {
      case "message_delta":
        current += event.delta;
        break;
      case "message":
        texts.push(event.text);
        context.progress(++step, "wrote text");
        break;
      case "message_end":
        if (current) texts.push(current);
        current = "";
        context.progress(++step, "wrote text");
        break;
      case "tool_call":
        context.progress(++step, `calling ${event.name}`);
        break;
      case "interaction_request":
        if (event.kind === "user_approval") {
          result.status = "needs_approval";
          result.approval = { tool: String(event.payload.toolName ?? ""), input: event.payload.input };
          approvals.push({
            id: event.id,
            toolCallId: String(event.payload.toolCallId ?? ""),
            toolName: String(event.payload.toolName ?? ""),
            input: event.payload.input,
          });
        }
        break;
      case "error":
        result.status = "failed";
        result.error = event.message;
        break;
      case "done":
        if (event.stopReason === "cancelled") result.status = "cancelled";
        break;
    }
  }
  if (current) texts.push(current);
  result.text = texts.join("\n\n");
  return { result, events: seen, approvals };
}
