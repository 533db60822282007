import type { AppContext } from "@/server/core/app-context";
import { BadRequestError, NotFoundError } from "@/server/core/errors";
import {
  MESSAGES_FORMAT_HEADER,
  negotiateFormat,
  negotiateTransport,
  turnResponse,
  type NativeEvent,
} from "@/server/streams";
import { followRun } from "./follow-run";
import { liveSessionKey, liveSessionsOf } from "./live-runs";
import { activeRunOfSession, findAgentRunSoon } from "./run-queries";
import type { AgentRunRow } from "./run-store";

/**
 * A run's events from its event log, then live until it ends, in any transport and format:
 * native SSE frames carry `id: <seq>`, and `Last-Event-ID` (or `?after=`) resumes after that
 * position with no duplicate and no gap; NDJSON streams the same; batch JSON waits for the end
 * and folds the turn. The UI Message Stream always replays from the start (the SDK's replay
 * rule: its `start` chunk resets the message being rebuilt).
 */
export async function runEventsResponse(
  app: AppContext,
  projectId: string,
  runId: string,
  request: Request,
  afterQuery: string | undefined,
): Promise<Response> {
  const run = await findAgentRunSoon(app.db, projectId, runId);
  if (!run) throw new NotFoundError(`Run ${runId} not found`, "run_not_found");
  const format = negotiateFormat(request.headers.get(MESSAGES_FORMAT_HEADER));
  const transport = negotiateTransport(request.headers.get("accept"), true);
  const after = format === "ui_sdk" ? 0 : resumePosition(request.headers.get("last-event-id") ?? afterQuery);
  return replay(app, run, { transport, format, after });
}

/**
 * The AI SDK's reconnect (`GET {api}/{chatId}/stream`): 204 when the session has no running
 * turn, else that turn's UI Message Stream replayed from the start, followed live, ending with
 * `[DONE]`. Any process can answer it: everything comes from the event log.
 */
export async function resumeChatResponse(app: AppContext, projectId: string, sessionId: string): Promise<Response> {
  await liveSessionsOf(app.db)
    .get(liveSessionKey(projectId, sessionId))?.()
    .catch(() => undefined);
  const run = await activeRunOfSession(app.db, projectId, sessionId);
  if (!run) return new Response(null, { status: 204 });
  return replay(app, run, { transport: "sse", format: "ui_sdk", after: 0 });
}

function replay(
  app: AppContext,
  run: AgentRunRow,
  options: { transport: "sse" | "ndjson" | "batch"; format: "native" | "ui_sdk"; after: number },
): Promise<Response> {
  const events = followRun(app.db, run.id, options.after).pipeThrough(
    new TransformStream<{ event: NativeEvent }, NativeEvent>({
      transform: (logged, controller) => controller.enqueue(logged.event),
    }),
  );
  return turnResponse(events, {
    transport: options.transport,
    format: options.format,
    sessionId: run.sessionId,
    traceId: run.traceId,
    spanId: run.spanId,
    messageId: run.messageId,
    trim: false,
    keepaliveMs: app.config.agentRuns.keepaliveMs,
    runId: run.id,
    continuesRunId: run.continuesRunId ?? undefined,
    firstEventId: options.after + 1,
  });
}

function resumePosition(value: string | null | undefined): number {
  if (value === null || value === undefined || value.trim() === "") return 0;
  const position = Number(value.trim());
  if (!Number.isSafeInteger(position) || position < 0) {
    throw new BadRequestError(
      `Last-Event-ID / after "${value}" is not an event position; send the \`id\` of the last frame received`,
      "invalid_event_id",
    );
  }
  return position;
}
