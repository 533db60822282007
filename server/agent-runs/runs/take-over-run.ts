import { and, eq, inArray, lte, max } from "drizzle-orm";
import type { AppContext } from "@/server/core/app-context";
import { logger } from "@/server/core/logger";
import { isDatabaseUnavailable, type Database } from "@/server/db";
import { agentRunEvents, agentRuns } from "@/server/db/schema";
import { RUN_TAKEN_OVER, type MessagesFormat, type NativeEvent, type RunUsage } from "@/server/streams";
import { beginTurn } from "../invoke/begin-turn";
import { prepareTurn } from "../invoke/prepare-turn";
import type { RunAgent } from "../run-agent";
import type { TurnInput } from "../run-types";
import { driveRun } from "./drive-run";
import { PROCESS_LEASE_OWNER } from "./live-runs";
import { findAgentRun, readRunEvents } from "./run-queries";
import { endRun, type RunOrigin, type RunRequest, type AgentRunRow } from "./run-store";
import {
  messagesOfEvents,
  planTakeover,
  renumberBlocks,
  settledApprovals,
  type InterruptedCall,
} from "./takeover-plan";
import { interruptedToolMessage, stepsOfLog, wholeRunRecord, type TimedEvent } from "./takeover-trace";

export const INTERRUPTED_MESSAGE =
  "The run was interrupted: the process running it stopped before the turn ended (its lease expired).";

/** A run that crashes every process that takes it over is failed rather than taken over forever. */
export const MAX_TAKEOVERS = 3;

/**
 * Claims one running run whose lease expired: locked with SKIP LOCKED so two sweeping
 * processes never claim the same run, and given this process's lease in the same statement (no
 * explicit transaction: the sweep's idle poll is one round trip).
 */
export async function claimExpiredRun(db: Database, now: Date, leaseMs: number): Promise<AgentRunRow | undefined> {
  const expired = db
    .select({ id: agentRuns.id })
    .from(agentRuns)
    .where(and(eq(agentRuns.status, "running"), lte(agentRuns.leaseExpiresAt, now)))
    .limit(1)
    .for("update", { skipLocked: true });
  const [claimed] = await db
    .update(agentRuns)
    .set({ leaseOwner: PROCESS_LEASE_OWNER, leaseExpiresAt: new Date(Date.now() + leaseMs) })
    .where(inArray(agentRuns.id, expired))
    .returning();
  return claimed;
}

/**
 * Continues a claimed run in this process from the last completed step of its log (rules in
 * `planTakeover`): the turn is prepared again from the recorded request, interrupted tool calls
 * are settled (a read-only tool allowed by the run's policy runs again; any other call gets an
 * error result and never runs twice), and the model is asked again with the input, the steps
 * so far and those results. The new events continue the same log, opened by a `run_taken_over`
 * event, and the trace written when the turn ends is the whole run's (`takeover-trace.ts`). A
 * run that cannot be continued is failed with the reason.
 */
export async function takeOverRun(app: AppContext, run: AgentRunRow): Promise<void> {
  const logged = await readRunEvents(app.db, run.id);
  const lastSeq = logged.at(-1)?.seq ?? 0;
  const plan = planTakeover(logged.map((entry) => entry.event));
  const request = run.request as RunRequest | null;
  if (!request) return failRun(app.db, run, lastSeq, notRecordedReason(run));
  if (plan.takeovers >= MAX_TAKEOVERS)
    return failRun(app.db, run, lastSeq, `it was taken over ${plan.takeovers} times already`);

  const trace = { traceId: run.traceId, spanId: run.spanId, parentSpanId: request.parentSpanId };
  // A continuation's usage includes the paused run's, as its first process summed it (read before
  // the turn opens anything a failed read would leave open).
  const continued = run.continuesRunId ? await findAgentRun(app.db, run.projectId, run.continuesRunId) : undefined;
  let input: TurnInput;
  try {
    input = await prepareTurn(
      app,
      { ...request.principal, projectId: run.projectId },
      request.body,
      run.format as MessagesFormat,
      // As its first process prepared it: an out-of-band answer's continuation settles the claimed
      // request; a prompt application keeps its sampling and name, a split environment its side.
      {
        trace,
        depth: 0,
        runId: run.id,
        claimedApprovals: request.claimedApprovals,
        sampling: request.sampling,
        agent: request.agent,
        splitKey: request.splitKey,
      },
    );
  } catch (error) {
    // A database down for now is no reason to fail the run: the sweep takes it over again.
    if (isDatabaseUnavailable(error)) throw error;
    return failRun(app.db, run, lastSeq, `the turn could not be prepared again: ${(error as Error).message}`);
  }
  if (continued?.usage) input.priorUsage = continued.usage as RunUsage;
  const marker: TimedEvent = {
    event: {
      type: "data",
      name: RUN_TAKEN_OVER,
      data: { discard: plan.discard, interrupted: plan.interrupted.map((c) => c.id) },
    },
    at: Date.now(),
  };
  const settled = await settleInterrupted(input, plan.interrupted);
  const opening: NativeEvent[] = [marker.event, ...settled.map((s) => s.event)];
  // The dead process wrote no spans (they are written when a turn ends): this turn's trace is the whole run's.
  const history = settledApprovals(input.messages, plan.kept);
  const before = {
    ...stepsOfLog([...logged, marker, ...settled], run.createdAt.getTime()),
    startedAt: run.createdAt.getTime(),
    messages: history,
  };
  input = {
    ...input,
    messages: [...history, ...messagesOfEvents([...plan.kept, ...settled.map((s) => s.event)])],
  };
  const turn = beginTurn(app, { ...input, door: run.origin as RunOrigin }, trace, undefined, (record) => ({
    ...wholeRunRecord(record, before),
    ...(run.continuesRunId ? { continuesRunId: run.continuesRunId } : {}),
  }));
  const prefix = `t${lastSeq}-`;
  const events = turn.events.pipeThrough(
    new TransformStream<NativeEvent, NativeEvent>({
      start(controller) {
        for (const event of opening) controller.enqueue(event);
      },
      transform(event, controller) {
        controller.enqueue(renumberBlocks(event, prefix));
      },
    }),
  );
  const driven = driveRun(
    app,
    { ...turn, events },
    {
      id: run.id,
      projectId: run.projectId,
      sessionId: run.sessionId,
      agent: run.agent as RunAgent,
      format: run.format,
      messageId: run.messageId,
      traceId: run.traceId,
      spanId: run.spanId,
      background: run.background,
      origin: run.origin as RunOrigin,
    },
    { cancelOnDisconnect: false, continuing: { lastSeq } },
  );
  // No client is attached: followers read the log.
  void driven.events.cancel();
  logger.info({ runId: run.id, after: lastSeq, interrupted: plan.interrupted.length }, "run taken over");
}

/**
 * Why a run without a recorded request is not continued: a door run's and a nested run's
 * answer had one reader, the request (or the calling tool call) that died with the process.
 */
function notRecordedReason(run: AgentRunRow): string {
  if (run.origin === "openai")
    return "an OpenAI-compatible request ends with its connection, which was lost with the process";
  if (run.parentRunId)
    return `a nested run ends with the tool call of its parent run ${run.parentRunId}, which was lost with the process`;
  return "its request was not recorded";
}

/** The interrupted calls' results, each with when it was settled (the trace times the calls run again by it). */
async function settleInterrupted(input: TurnInput, calls: InterruptedCall[]): Promise<TimedEvent[]> {
  const settled: TimedEvent[] = [];
  const settle = (event: NativeEvent) => settled.push({ event, at: Date.now() });
  for (const call of calls) {
    const tool = input.tools.byName.get(call.name);
    const allowed = tool?.readOnly && tool.run && (tool.permissionFor?.(call.input) ?? "allow") === "allow";
    if (!allowed || !tool.run) {
      settle({ type: "tool_result", id: call.id, output: interruptedToolMessage(call.name), isError: true });
      continue;
    }
    try {
      settle({ type: "tool_result", id: call.id, output: await tool.run(call.input, undefined, call.id) });
    } catch (error) {
      settle({ type: "tool_result", id: call.id, output: (error as Error).message, isError: true });
    }
  }
  return settled;
}

/**
 * The fallback: appends an error (the interruption and why the run could not go on) and
 * `done{interrupted}`, and ends the run `failed` with its `agents.runs.failed` event.
 */
async function failRun(db: Database, run: AgentRunRow, lastSeq: number, reason: string): Promise<void> {
  const message = `${INTERRUPTED_MESSAGE} It could not be continued: ${reason}.`;
  await db.transaction(async (tx) => {
    const [last] = await tx
      .select({ seq: max(agentRunEvents.lastSeq) })
      .from(agentRunEvents)
      .where(eq(agentRunEvents.runId, run.id));
    const seq = Math.max(lastSeq, Number(last?.seq ?? 0));
    await tx.insert(agentRunEvents).values({
      runId: run.id,
      seq: seq + 1,
      lastSeq: seq + 2,
      events: [
        { type: "error", message },
        { type: "done", stopReason: "interrupted", traceId: run.traceId },
      ],
    });
    await endRun(tx, run.id, { stopReason: "interrupted", error: message, eventCount: seq + 2 });
  });
  logger.warn({ runId: run.id, reason }, "run taken over could not be continued; failed");
}
