import { traceContext } from "../trace-context";
import type { Principal } from "@/server/auth";
import type { AppContext } from "@/server/core/app-context";
import { MESSAGES_FORMAT_HEADER, negotiateFormat, negotiateTransport, turnResponse } from "@/server/streams";
import type { InvokeRequest } from "./invoke-request";
import { prepareTurn } from "./prepare-turn";
import { beginTurn } from "./begin-turn";

/**
 * One agent turn over HTTP: negotiate, prepare (every pre-stream failure is a JSON error), start
 * the turn bound to the request's abort signal, and project its events into the response.
 */
export async function invokeAgent(
  app: AppContext,
  principal: Principal,
  request: Request,
  body: InvokeRequest,
): Promise<Response> {
  const format = negotiateFormat(request.headers.get(MESSAGES_FORMAT_HEADER));
  const transport = negotiateTransport(request.headers.get("accept"), Boolean(body.flags?.stream));
  const trace = traceContext(request.headers.get("traceparent"));
  const input = await prepareTurn(app, principal, body, format, { trace, depth: 0 });
  const turn = beginTurn(app, input, trace, request.signal);
  return turnResponse(turn.events, {
    transport,
    format,
    sessionId: input.sessionId,
    traceId: trace.traceId,
    spanId: trace.spanId,
    messageId: replyMessageId(body, format) ?? `msg-${trace.traceId}`,
    trim: Boolean(body.flags?.trim),
    keepaliveMs: app.config.agentRuns.keepaliveMs,
  });
}

/** A ui_sdk conversation that ends on an assistant message continues that message. */
function replyMessageId(body: InvokeRequest, format: string): string | undefined {
  if (format !== "ui_sdk") return undefined;
  const last = body.data?.inputs?.messages.at(-1) as { role?: unknown; id?: unknown } | undefined;
  return last?.role === "assistant" && typeof last.id === "string" && last.id ? last.id : undefined;
}
