import { newId } from "@/server/core/ids";
import type { Principal } from "@/server/auth";
import type { AppContext } from "@/server/core/app-context";
import { driveRun } from "../runs/drive-run";
import type { RunOrigin } from "../runs/run-store";
import { traceContext } from "../trace-context";
import { beginTurn } from "./begin-turn";
import type { InvokeRequest } from "./invoke-request";
import { prepareTurn, type PrepareOptions } from "./prepare-turn";

export interface StartedRun {
  runId: string;
  sessionId: string;
  traceId: string;
}

/**
 * A turn nobody waits on (an automation firing): prepared like invoke's `flags.background`, recorded
 * as a durable run (event log, lease, takeover by the sweep) and answered once its row exists.
 * The body's messages are native; a refusal before the turn starts throws its own error.
 * `runs` carries a prompt application's sampling and name when the body holds it as an inline template.
 */
export async function startBackgroundRun(
  app: AppContext,
  principal: Principal,
  body: InvokeRequest,
  origin: RunOrigin,
  runId: string = newId(),
  runs: Pick<PrepareOptions, "sampling" | "agent"> = {},
): Promise<StartedRun> {
  const trace = traceContext(null);
  const input = await prepareTurn(app, principal, body, "native", { ...runs, trace, depth: 0, runId });
  const turn = beginTurn(app, input, trace);
  const { events, recorded } = driveRun(
    app,
    turn,
    {
      id: runId,
      projectId: principal.projectId,
      sessionId: input.sessionId,
      agent: input.agent,
      format: "native",
      messageId: `msg-${trace.traceId}`,
      traceId: trace.traceId,
      spanId: trace.spanId,
      background: true,
      origin,
      request: {
        principal: { userId: principal.userId, role: principal.role, apiKeyId: principal.apiKeyId },
        body: { ...body, session_id: input.sessionId },
        parentSpanId: trace.parentSpanId,
      },
    },
    { cancelOnDisconnect: false, answerAfterEnd: false },
  );
  void events.cancel();
  await recorded();
  return { runId, sessionId: input.sessionId, traceId: trace.traceId };
}
