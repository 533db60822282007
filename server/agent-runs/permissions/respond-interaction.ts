import { z } from "zod";
import type { Principal } from "@/server/auth";
import type { AppContext } from "@/server/core/app-context";
import { BadRequestError, ConflictError, NotFoundError } from "@/server/core/errors";
import { newId } from "@/server/core/ids";
import type { toolApprovals } from "@/server/db/schema";
import { readInboundMessages, type ContentBlock, type MessagesFormat, type NativeMessage } from "@/server/streams";
import { startBackgroundRun } from "../invoke/start-background-run";
import type { InvokeRequest } from "../invoke/invoke-request";
import { findAgentRun, readRunEvents } from "../runs/run-queries";
import type { AgentRunRow, RunOrigin, RunRequest } from "../runs/run-store";
import { messagesOfEvents, settledApprovals } from "../runs/takeover-plan";
import { ApprovalStore, CLAIM_LEASE_MS } from "./approval-store";
import { findApproval, interactionOf, type InteractionClock, type InteractionWire } from "./interactions";

export const respondBodySchema = z.strictObject({
  answer: z.strictObject({
    approved: z.boolean(),
    /** When given, it must be the request's tool call. */
    tool_call_id: z.string().min(1).optional(),
    /** Appended to the conversation as a trailing user message. */
    message: z.string().min(1).max(100_000).optional(),
  }),
});
export type RespondBody = z.output<typeof respondBodySchema>;

export const NOT_PENDING = "Interaction is no longer pending";

/** Told to the model for a call of the same paused step whose own request is still open. */
export const notAnsweredYet = (toolName: string) =>
  `Not run: the approval request for "${toolName}" has not been answered yet; this turn continues with another answer of the same step.`;

export const clockOf = (app: AppContext): InteractionClock => ({
  now: app.now(),
  ttlMs: app.config.agentRuns.approvalTtlMs,
});

/** An approval request of the caller's project, or 404. */
export async function interactionById(app: AppContext, projectId: string, id: string): Promise<InteractionWire> {
  const row = await findApproval(app.db, projectId, id);
  if (!row) throw new NotFoundError(`Interaction ${id} not found`, "interaction_not_found");
  return interactionOf(app.db, row, clockOf(app));
}

/**
 * Answers an approval request out of band and continues its paused run as a background run, as
 * the in-band answer would (a new turn of the same session whose input answers the request):
 * 1. one update claims the row (`pending` -> `responding`, within AGENT_APPROVAL_TTL_MS) and
 *    records the claim's time and the continuation's run id, minted now: exactly one caller wins,
 *    every other gets 409. A claim older than CLAIM_LEASE_MS whose run was never recorded (its
 *    process died in between) may be claimed again, its run id kept;
 * 2. the paused run's conversation is composed from its record: its input (answers it settled
 *    replaced by their results), its turn from the log, the answer as a `tool_result` naming the
 *    request, and `message` as a trailing user message;
 * 3. `startBackgroundRun` runs it with that run id, on the paused run's revision (or inline
 *    template), in its session, of its origin; its `ApprovalStore` may settle this `responding`
 *    row (`claimedApprovals`, kept in the run's recorded request for a takeover), and
 *    `resumeApprovals` runs an approved call or answers a denied one, as for any turn.
 * If the run cannot be started the row goes back to `pending` and the refusal is the answer.
 */
export async function respondToInteraction(
  app: AppContext,
  principal: Principal,
  id: string,
  { answer }: RespondBody,
): Promise<InteractionWire> {
  const { projectId } = principal;
  const clock = clockOf(app);
  const row = await findApproval(app.db, projectId, id);
  if (!row) throw new NotFoundError(`Interaction ${id} not found`, "interaction_not_found");
  if (answer.tool_call_id !== undefined && answer.tool_call_id !== row.toolCallId)
    throw new BadRequestError(
      `answer.tool_call_id is not the tool call this interaction asks about (${row.toolCallId})`,
      "bad_request",
      [{ path: "answer.tool_call_id", message: `must be ${row.toolCallId}` }],
    );
  const approvals = new ApprovalStore(app.db, projectId, row.sessionId, clock.ttlMs, app.now);
  const won = await approvals.claim(id, newId());
  if (!won) {
    // A request past its time (pending, or a claim abandoned) is marked as an in-band answer would mark it.
    await approvals.expire(id);
    throw await notPending(app, projectId, id);
  }
  const runId = won.continuationRunId!;
  let started: Awaited<ReturnType<typeof startBackgroundRun>>;
  try {
    const paused = won.runId ? await findAgentRun(app.db, projectId, won.runId) : undefined;
    const request = paused?.request as RunRequest | null | undefined;
    if (!paused || !request)
      throw new ConflictError(
        `${NOT_PENDING}: the run that asked cannot be continued (its record or its request is gone)`,
        "interaction_not_pending",
      );
    if (paused.status === "running")
      throw new ConflictError(
        `The run ${paused.id} that asked is still running; answer once it has paused`,
        "interaction_not_pending",
      );
    const body = await continuationBody(app, paused, request, won, answer);
    // Of the paused run's origin: a list filtered by origin (an automation's runs) keeps the continuation.
    started = await startBackgroundRun(app, principal, body, paused.origin as RunOrigin, runId, {
      claimedApprovals: [id],
    });
  } catch (error) {
    await approvals.release(id, runId);
    throw error;
  }
  // The claim was taken up again while its first process still lived, and that one started the run first.
  if (started.startedBefore) throw processing(runId);
  const interaction = await interactionOf(app.db, won, clock);
  return {
    ...interaction,
    data: {
      ...interaction.data,
      response: {
        approved: answer.approved,
        tool_call_id: won.toolCallId,
        ...(answer.message ? { message: answer.message } : {}),
        run_id: started.runId,
      },
    },
  };
}

const processing = (runId: string) => continuedBy(runId, `its answer is being processed by run ${runId}`);

/** A 409 that names the run continuing with the winning answer, in its text and as `run_id`. */
function continuedBy(runId: string, why: string): ConflictError {
  const error = new ConflictError(`${NOT_PENDING}: ${why}`, "interaction_not_pending");
  error.fields = { run_id: runId };
  return error;
}

/**
 * Why a claim failed, as the row now says: answered out of band (naming the run that continues
 * with the answer; one claimed moments ago whose run is not recorded yet says when it may be
 * answered again), or simply no longer pending.
 */
async function notPending(app: AppContext, projectId: string, id: string): Promise<ConflictError> {
  const row = await findApproval(app.db, projectId, id);
  const runId = row?.continuationRunId;
  if (!runId || (row.status !== "responding" && row.status !== "responded"))
    return new ConflictError(NOT_PENDING, "interaction_not_pending");
  if (row.status === "responded") return continuedBy(runId, `it was answered; run ${runId} continued with the answer`);
  if (await findAgentRun(app.db, projectId, runId)) return processing(runId);
  const retryAt = new Date(row.claimedAt!.getTime() + CLAIM_LEASE_MS).toISOString();
  return continuedBy(
    runId,
    `an answer is starting run ${runId}; if that run is not recorded by ${retryAt}, the request may be answered again`,
  );
}

/**
 * The in-band answer, composed from the paused run's record: the invoke body that continues it on
 * the revision it ran (its inline template as it was, else `workflow_revision` by id), in its
 * session, with its `unattended` flag.
 */
async function continuationBody(
  app: AppContext,
  paused: AgentRunRow,
  request: RunRequest,
  approval: typeof toolApprovals.$inferSelect,
  answer: RespondBody["answer"],
): Promise<InvokeRequest> {
  const events = (await readRunEvents(app.db, paused.id)).map((entry) => entry.event);
  const input = readInboundMessages(request.body.data?.inputs?.messages ?? [], paused.format as MessagesFormat);
  const turn = messagesOfEvents(events);
  const result: ContentBlock = {
    type: "tool_result",
    toolCallId: approval.toolCallId,
    toolName: approval.toolName,
    approved: answer.approved,
    interactionToken: approval.id,
    output: { approved: answer.approved, interactionToken: approval.id },
  };
  const asked = events.find((event) => event.type === "interaction_request" && event.id === approval.id);
  const call: ContentBlock = {
    type: "tool_call",
    toolCallId: approval.toolCallId,
    toolName: approval.toolName,
    input: asked?.type === "interaction_request" ? (asked.payload.input ?? {}) : {},
  };
  const messages: NativeMessage[] = [...settledApprovals(input, events), ...withAnswer(turn, call, result)];
  if (answer.message) messages.push({ role: "user", content: [{ type: "text", text: answer.message }] });
  const inline = request.body.data?.parameters?.agent !== undefined && request.body.data?.parameters?.agent !== null;
  const revision = (paused.agent as { references?: Record<string, { id?: string }> } | null)?.references
    ?.workflow_revision?.id;
  const unattended = request.body.flags?.unattended;
  return {
    session_id: paused.sessionId,
    references: inline || !revision ? request.body.references : { workflow_revision: { id: revision } },
    ...(unattended ? { flags: { unattended } } : {}),
    data: {
      inputs: { messages },
      ...(request.body.data?.parameters ? { parameters: request.body.data.parameters } : {}),
    },
  };
}

/**
 * The paused turn with the answer beside its call (a tool result follows its call in the step's
 * message, as the log folds it); a call of the same step left without a result (its own request
 * still open) is told it was not run, so the model is never sent a call without a result.
 */
function withAnswer(turn: NativeMessage[], call: ContentBlock, answer: ContentBlock): NativeMessage[] {
  const answered = new Set<string>();
  for (const message of turn)
    for (const block of message.content)
      if (block.type === "tool_result" && block.toolCallId) answered.add(block.toolCallId);
  const out = turn.map((message) => ({ ...message, content: [...message.content] }));
  const step = out.findLast((message) =>
    message.content.some((block) => block.type === "tool_call" && block.toolCallId === answer.toolCallId),
  );
  // The call is not in the log (a renewed request's turn): it is given from the request, as asked.
  if (!step) return [...out, { role: "assistant", content: [call, answer] }];
  for (const block of [...step.content])
    if (block.type === "tool_call" && block.toolCallId && !answered.has(block.toolCallId))
      step.content.push(
        block.toolCallId === answer.toolCallId
          ? answer
          : {
              type: "tool_result",
              toolCallId: block.toolCallId,
              toolName: block.toolName,
              output: notAnsweredYet(block.toolName ?? "tool"),
              isError: true,
            },
      );
  return out;
}
