import type { Principal } from "@/server/auth";
import type { AppContext } from "@/server/core/app-context";
import { newId, randomHex } from "@/server/core/ids";
import { foldBatch, type BatchOutputs, type NativeEvent } from "@/server/streams";
import { driveRun } from "../runs/drive-run";
import type { TurnInput } from "../run-types";
import type { TraceContext } from "../trace-context";
import type { NestedRunRequest } from "../tools/tool-types";
import { beginTurn } from "./begin-turn";
import type { InvokeRequest } from "./invoke-request";

/** A nested run as its calling turn's tools ask for it: in the caller's trace, one level deeper. */
export type NestedTurnRequest = NestedRunRequest & {
  traceId: string;
  depth: number;
  activity: EventTarget;
  parentRunId?: string;
};

/**
 * How the nested turn is prepared: as every turn is (prepare-turn.ts), which hands this in because
 * it is the caller of this module through the turn's tools (a nested run is a turn inside a turn).
 */
export type PrepareNestedTurn = (
  body: InvokeRequest,
  options: { trace: TraceContext; depth: number; runId?: string },
) => Promise<TurnInput>;

/**
 * A workflow revision run as a batch turn inside a tool call (reference tools): the same prepare,
 * harness, engine and trace recording as invoke, in the caller's project, in the caller's trace
 * under the calling `execute_tool` span. Nobody can answer an approval inside it, so a call that
 * would ask is refused (`unattended: deny`) and the model is told. Each of its events counts as
 * activity of the calling turn, so a long nested run does not trip the caller's idle limit.
 * When the calling turn is a recorded run, this one is recorded too (origin `nested`, naming its
 * parent), so it is listed, followed and cancelled like any run; it lives and dies with the
 * calling tool call (its signal), never apart from it.
 */
export async function runNested(
  app: AppContext,
  principal: Principal,
  request: NestedTurnRequest,
  prepare: PrepareNestedTurn,
): Promise<BatchOutputs> {
  const trace = {
    traceId: request.traceId,
    spanId: randomHex(8),
    parentSpanId: request.parentSpanId,
  };
  const runId = request.parentRunId ? newId() : undefined;
  const input = await prepare(
    {
      references: { workflow_revision: { id: request.revisionId } },
      flags: { unattended: "deny" },
      data: { inputs: { messages: request.messages } },
    },
    { trace, depth: request.depth, runId },
  );
  const turn = beginTurn(app, { ...input, door: "nested" }, trace, request.signal);
  const stream =
    runId && request.parentRunId
      ? driveRun(
          app,
          turn,
          {
            id: runId,
            projectId: principal.projectId,
            sessionId: input.sessionId,
            agent: input.agent,
            format: "native",
            messageId: `msg-${trace.spanId}`,
            traceId: trace.traceId,
            spanId: trace.spanId,
            background: false,
            origin: "nested",
            parentRunId: request.parentRunId,
          },
          // The caller folds this run as a batch answer: once it has the answer, the child run is
          // recorded, so the caller never ends (and is never listed) before its child exists.
          { cancelOnDisconnect: true, answerAfterEnd: true },
        ).events
      : turn.events;
  const events: NativeEvent[] = [];
  const reader = stream.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    events.push(next.value);
    // The caller's turn is waiting on this one, not stuck.
    request.activity.dispatchEvent(new Event("activity"));
  }
  return foldBatch(events);
}
