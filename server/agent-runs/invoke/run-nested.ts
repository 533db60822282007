import { randomBytes } from "node:crypto";
import type { Principal } from "@/server/auth";
import type { AppContext } from "@/server/core/app-context";
import { foldBatch, type BatchOutputs, type NativeEvent } from "@/server/streams";
import type { NestedRunRequest } from "../tools/tool-types";
import { prepareTurn } from "./prepare-turn";
import { beginTurn } from "./begin-turn";

/**
 * A workflow revision run as a batch turn inside a tool call (reference tools): the same prepare,
 * harness, engine and trace recording as invoke, in the caller's project, in the caller's trace
 * under the calling `execute_tool` span. Nobody can answer an approval inside it, so a call that
 * would ask is refused (`unattended: deny`) and the model is told. Each of its events counts as
 * activity of the calling turn, so a long nested run does not trip the caller's idle limit.
 */
export async function runNested(
  app: AppContext,
  principal: Principal,
  request: NestedRunRequest & { traceId: string; depth: number; activity: EventTarget },
): Promise<BatchOutputs> {
  const trace = {
    traceId: request.traceId,
    spanId: randomBytes(8).toString("hex"),
    parentSpanId: request.parentSpanId,
  };
  const input = await prepareTurn(
    app,
    principal,
    {
      references: { workflow_revision: { id: request.revisionId } },
      flags: { unattended: "deny" },
      data: { inputs: { messages: request.messages } },
    },
    "native",
    { trace, depth: request.depth },
  );
  const turn = beginTurn(app, input, trace, request.signal);
  const events: NativeEvent[] = [];
  const reader = turn.events.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    events.push(next.value);
    // The caller's turn is waiting on this one, not stuck.
    request.activity.dispatchEvent(new Event("activity"));
  }
  return foldBatch(events);
}
