import { newId } from "@/server/core/ids";
import { traceContext } from "../trace-context";
import type { Principal } from "@/server/auth";
import type { AppContext } from "@/server/core/app-context";
import {
  MESSAGES_FORMAT_HEADER,
  negotiateFormat,
  negotiateTransport,
  readInboundMessages,
  turnResponse,
  type MessagesFormat,
} from "@/server/streams";
import { SERVED_REVISION_HEADER, SPLIT_KEY_HEADER } from "@/server/versioning";
import { driveRun } from "../runs/drive-run";
import { recordedRequest, type RunOrigin } from "../runs/run-store";
import { continuedRun, continuingTrace, type ContinuedRun } from "../runs/run-lineage";
import { SESSION_ID_HEADER, withRequestHeaders, type InvokeRequest } from "./invoke-request";
import { prepareTurn } from "./prepare-turn";
import { beginTurn } from "./begin-turn";

/**
 * One agent turn over HTTP: negotiate, prepare (every pre-stream failure is a JSON error), start
 * the turn as a run that outlives the request (server/agent-runs/runs), and project its events
 * into the response; `flags.background` answers 202 with the run's id instead. `origin` is the
 * door it came through (the agent API or the playground's cookie twin), recorded on the run.
 */
export async function invokeAgent(
  app: AppContext,
  principal: Principal,
  request: Request,
  sent: InvokeRequest,
  origin: Extract<RunOrigin, "invoke" | "playground"> = "invoke",
): Promise<Response> {
  const body = withRequestHeaders(sent, request.headers);
  const format = negotiateFormat(request.headers.get(MESSAGES_FORMAT_HEADER));
  const transport = negotiateTransport(request.headers.get("accept"), Boolean(body.flags?.stream));
  // Known before the turn is prepared: its approval requests name it, and a continued run decides its trace.
  const runId = newId();
  const continues = await pausedRunAnswered(app, principal.projectId, body, format);
  const trace = continuingTrace(traceContext(request.headers.get("traceparent")), continues);
  const splitKey = request.headers.get(SPLIT_KEY_HEADER) ?? undefined;
  const input = await prepareTurn(app, principal, body, format, { trace, depth: 0, runId, splitKey });
  // Which revision runs (a split environment chose one): the caller can tell without reading the run.
  const served = input.agent.references?.workflow_revision?.id;
  const servedHeaders: Record<string, string> = served ? { [SERVED_REVISION_HEADER]: served } : {};
  if (continues?.usage) input.priorUsage = continues.usage;
  input.door = origin;
  const cancelOnDisconnect = Boolean(body.flags?.cancel_on_disconnect) && !body.flags?.background;
  const turn = beginTurn(
    app,
    input,
    trace,
    cancelOnDisconnect ? request.signal : undefined,
    continues ? (record) => ({ ...record, continuesRunId: continues.id }) : undefined,
  );
  const messageId = replyMessageId(body, format) ?? `msg-${trace.traceId}`;
  const { events, recorded } = driveRun(
    app,
    turn,
    {
      id: runId,
      projectId: principal.projectId,
      sessionId: input.sessionId,
      agent: input.agent,
      format,
      messageId,
      traceId: trace.traceId,
      spanId: trace.spanId,
      background: Boolean(body.flags?.background),
      origin,
      continuesRunId: continues?.id,
      request: recordedRequest(principal, body, input.sessionId, trace.parentSpanId, { splitKey }),
    },
    { cancelOnDisconnect, answerAfterEnd: transport === "batch" },
  );
  if (body.flags?.background) {
    void events.cancel();
    // The caller follows the run by its id next: it must be there.
    await recorded();
    return Response.json(
      {
        run_id: runId,
        session_id: input.sessionId,
        trace_id: trace.traceId,
        status: "running",
        ...(continues ? { continues_run_id: continues.id } : {}),
      },
      {
        status: 202,
        headers: {
          ...input.controls?.headers,
          "x-svc-run-id": runId,
          [SESSION_ID_HEADER]: input.sessionId,
          ...servedHeaders,
        },
      },
    );
  }
  const response = await turnResponse(events, {
    transport,
    format,
    sessionId: input.sessionId,
    traceId: trace.traceId,
    spanId: trace.spanId,
    messageId,
    trim: Boolean(body.flags?.trim),
    keepaliveMs: app.config.agentRuns.keepaliveMs,
    runId,
    continuesRunId: continues?.id,
    headers: input.controls?.headers,
  });
  for (const [name, value] of Object.entries(servedHeaders)) response.headers.set(name, value);
  return response;
}

/**
 * The paused run whose approval requests this turn answers. Only a turn whose input carries
 * answers costs a query; messages that cannot be read name no run here and are refused, with
 * their reason, when the turn is prepared.
 */
export async function pausedRunAnswered(
  app: AppContext,
  projectId: string,
  body: InvokeRequest,
  format: MessagesFormat,
): Promise<ContinuedRun | undefined> {
  if (!body.session_id) return undefined;
  let messages;
  try {
    messages = readInboundMessages(body.data?.inputs?.messages ?? [], format);
  } catch {
    return undefined;
  }
  return continuedRun(app.db, projectId, body.session_id, messages);
}

/** A ui_sdk conversation that ends on an assistant message continues that message. */
function replyMessageId(body: InvokeRequest, format: string): string | undefined {
  if (format !== "ui_sdk") return undefined;
  const last = body.data?.inputs?.messages.at(-1) as { role?: unknown; id?: unknown } | undefined;
  return last?.role === "assistant" && typeof last.id === "string" && last.id ? last.id : undefined;
}
