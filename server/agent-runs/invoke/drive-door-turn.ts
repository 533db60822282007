import type { AppContext } from "@/server/core/app-context";
import { driveRun } from "../runs/drive-run";
import type { RunOrigin } from "../runs/run-store";
import type { TurnInput } from "../run-types";
import type { TraceContext } from "../trace-context";
import { beginTurn } from "./begin-turn";

/**
 * A prepared turn that another protocol's door (OpenAI-compatible, MCP) answers as it runs: begun
 * on its harness and driven as a foreground run of the door's origin, in the native format the
 * door converts from, cancelled when the caller goes away. `continuesRunId`: the paused run whose
 * approval requests this turn's input answers (an MCP client's elicitation), as invoke records it.
 */
export function driveDoorTurn(
  app: AppContext,
  input: TurnInput,
  trace: TraceContext,
  run: { id: string; projectId: string; origin: RunOrigin; continuesRunId?: string },
  signal?: AbortSignal,
) {
  const continues = run.continuesRunId;
  const handle = beginTurn(
    app,
    { ...input, door: run.origin },
    trace,
    signal,
    continues ? (record) => ({ ...record, continuesRunId: continues }) : undefined,
  );
  return driveRun(
    app,
    handle,
    {
      ...run,
      sessionId: input.sessionId,
      agent: input.agent,
      format: "native",
      messageId: `msg-${trace.traceId}`,
      traceId: trace.traceId,
      spanId: trace.spanId,
      background: false,
    },
    { cancelOnDisconnect: true },
  );
}
