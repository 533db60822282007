import { and, eq, lte, max } from "drizzle-orm";
import type { AppContext } from "@/server/core/app-context";
import { logger } from "@/server/core/logger";
import type { Database } from "@/server/db";
import { agentRunEvents, agentRuns } from "@/server/db/schema";
import { RUN_TAKEN_OVER, type MessagesFormat, type NativeEvent } from "@/server/streams";
import { beginTurn } from "../invoke/begin-turn";
import { prepareTurn } from "../invoke/prepare-turn";
import type { RunAgent } from "../run-agent";
import type { TurnInput } from "../run-types";
import { driveRun } from "./drive-run";
import { PROCESS_LEASE_OWNER } from "./live-runs";
import { endRun, readRunEvents, type RunRequest, type RunRow } from "./run-store";
import { messagesOfEvents, planTakeover, renumberBlocks, type InterruptedCall } from "./takeover-plan";

export const INTERRUPTED_MESSAGE =
  "The run was interrupted: the process running it stopped before the turn ended (its lease expired).";

/** A run that crashes every process that takes it over is failed rather than taken over forever. */
export const MAX_TAKEOVERS = 3;

export const interruptedToolMessage = (name: string) =>
  `The tool call "${name}" was interrupted: the process running it stopped before its result was recorded. It was not run again, since it may have side effects; check its effect before calling it again.`;

/**
 * Claims one running run whose lease expired: locked with SKIP LOCKED so two sweeping
 * processes never claim the same run, and given this process's lease in the same transaction.
 */
export async function claimExpiredRun(db: Database, now: Date, leaseMs: number): Promise<RunRow | undefined> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(agentRuns)
      .where(and(eq(agentRuns.status, "running"), lte(agentRuns.leaseExpiresAt, now)))
      .limit(1)
      .for("update", { skipLocked: true });
    if (!row) return undefined;
    const [claimed] = await tx
      .update(agentRuns)
      .set({ leaseOwner: PROCESS_LEASE_OWNER, leaseExpiresAt: new Date(Date.now() + leaseMs) })
      .where(eq(agentRuns.id, row.id))
      .returning();
    return claimed;
  });
}

/**
 * Continues a claimed run in this process from the last completed step of its log (rules in
 * `planTakeover`): the turn is prepared again from the recorded request, interrupted tool calls
 * are settled (a read-only tool allowed by the run's policy runs again; any other call gets an
 * error result and never runs twice), and the model is asked again with the input, the steps
 * so far and those results. The new events continue the same log, opened by a `run_taken_over`
 * event. A run that cannot be continued is failed with the reason.
 */
export async function takeOverRun(app: AppContext, run: RunRow): Promise<void> {
  const logged = await readRunEvents(app.db, run.id);
  const lastSeq = logged.at(-1)?.seq ?? 0;
  const plan = planTakeover(logged.map((entry) => entry.event));
  const request = run.request as RunRequest | null;
  if (!request) return failRun(app.db, run, lastSeq, "its request was not recorded");
  if (plan.takeovers >= MAX_TAKEOVERS)
    return failRun(app.db, run, lastSeq, `it was taken over ${plan.takeovers} times already`);

  const trace = { traceId: run.traceId, spanId: run.spanId };
  let input: TurnInput;
  try {
    input = await prepareTurn(
      app,
      { ...request.principal, projectId: run.projectId },
      request.body,
      run.format as MessagesFormat,
      { trace, depth: 0 },
    );
  } catch (error) {
    return failRun(app.db, run, lastSeq, `the turn could not be prepared again: ${(error as Error).message}`);
  }
  const settled = await settleInterrupted(input, plan.interrupted);
  const opening: NativeEvent[] = [
    {
      type: "data",
      name: RUN_TAKEN_OVER,
      data: { discard: plan.discard, interrupted: plan.interrupted.map((c) => c.id) },
    },
    ...settled,
  ];
  input = { ...input, messages: [...input.messages, ...messagesOfEvents([...plan.kept, ...settled])] };
  const turn = beginTurn(app, input, trace);
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
    },
    { cancelOnDisconnect: false, continuing: { lastSeq } },
  );
  // No client is attached: followers read the log.
  void driven.events.cancel();
  logger.info({ runId: run.id, after: lastSeq, interrupted: plan.interrupted.length }, "run taken over");
}

async function settleInterrupted(input: TurnInput, calls: InterruptedCall[]): Promise<NativeEvent[]> {
  const settled: NativeEvent[] = [];
  for (const call of calls) {
    const tool = input.tools.byName.get(call.name);
    const allowed = tool?.readOnly && tool.run && (tool.permissionFor?.(call.input) ?? "allow") === "allow";
    if (!allowed || !tool.run) {
      settled.push({ type: "tool_result", id: call.id, output: interruptedToolMessage(call.name), isError: true });
      continue;
    }
    try {
      settled.push({ type: "tool_result", id: call.id, output: await tool.run(call.input, undefined, call.id) });
    } catch (error) {
      settled.push({ type: "tool_result", id: call.id, output: (error as Error).message, isError: true });
    }
  }
  return settled;
}

/**
 * The fallback: appends an error (the interruption and why the run could not go on) and
 * `done{interrupted}`, and ends the run `failed` with its `agents.runs.failed` event.
 */
async function failRun(db: Database, run: RunRow, lastSeq: number, reason: string): Promise<void> {
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
