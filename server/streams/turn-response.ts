import { readUIMessageStream, type UIMessage, type UIMessageChunk } from "ai";
import { z } from "zod";
import { batchOutputsSchema, foldBatch } from "./batch-fold";
import type { NativeEvent } from "./native-event";
import { nativeFrameStream } from "./native-frames";
import type { MessagesFormat, Transport } from "./negotiate";
import { keepaliveStream, ndjsonStream, sseStream } from "./sse";
import { UiMessageProjection, uiMessageStream } from "./ui-message-projection";

export interface TurnResponseOptions {
  transport: Transport;
  format: MessagesFormat;
  sessionId: string;
  traceId: string;
  /** This run's span (`invoke_agent`), returned as the response's `traceparent`. */
  spanId: string;
  /** The UI message id of the reply (the trailing assistant message's id when continuing one). */
  messageId: string;
  trim: boolean;
  keepaliveMs: number;
  /** The run these events belong to (`x-svc-run-id`): cancel it, fetch it or resume it by this id. */
  runId?: string;
  /** The paused run this run continues (`x-svc-continues-run-id`, and the UI stream's `start` metadata). */
  continuesRunId?: string;
  /** Native SSE frames carry `id:` from this sequence number on (the run's event log `seq`). */
  firstEventId?: number;
  /** Sent as they are (the rate limits the turn counted against, server/controls). */
  headers?: Record<string, string>;
}

export const SSE_HEADERS = {
  "content-type": "text/event-stream",
  "cache-control": "no-cache",
  connection: "keep-alive",
  "x-accel-buffering": "no",
};

/** One event stream, projected into the negotiated transport and format. */
export async function turnResponse(
  events: ReadableStream<NativeEvent>,
  options: TurnResponseOptions,
): Promise<Response> {
  const headers: Record<string, string> = {
    ...options.headers,
    "x-svc-version": BATCH_VERSION,
    "x-svc-session-id": options.sessionId,
    "x-svc-trace-id": options.traceId,
    "x-svc-span-id": options.spanId,
    traceparent: `00-${options.traceId}-${options.spanId}-01`,
    // The reference's W3C baggage: the session rides along to whatever the caller calls next.
    baggage: `ag.session.id=${encodeURIComponent(options.sessionId)}`,
    "x-svc-messages-format": options.format,
    "x-svc-messages-version": "v1",
  };
  if (options.runId) headers["x-svc-run-id"] = options.runId;
  if (options.continuesRunId) headers["x-svc-continues-run-id"] = options.continuesRunId;
  if (options.transport === "batch") {
    const body = await batchBody(events, options);
    return new Response(JSON.stringify(body), {
      status: 200,
      headers: { ...headers, "content-type": "application/json; charset=utf-8" },
    });
  }
  const frames: ReadableStream<unknown> =
    options.format === "ui_sdk"
      ? events.pipeThrough(
          uiMessageStream({
            messageId: options.messageId,
            sessionId: options.sessionId,
            continuesRunId: options.continuesRunId,
          }),
        )
      : events.pipeThrough(nativeFrameStream());
  if (options.format === "ui_sdk") {
    headers["x-ui-message-stream"] = "v1";
    // The AI SDK's own name for it (createUIMessageStreamResponse), which the reference also sends.
    headers["x-vercel-ai-ui-message-stream"] = "v1";
  }
  if (options.transport === "ndjson") {
    const text = frames.pipeThrough(ndjsonStream());
    return new Response(text.pipeThrough(new TextEncoderStream()), {
      status: 200,
      headers: {
        ...headers,
        "content-type": "application/x-ndjson",
        "cache-control": "no-cache",
        "x-accel-buffering": "no",
      },
    });
  }
  let nextId = options.firstEventId ?? 1;
  const id = options.format === "native" && options.runId ? () => String(nextId++) : undefined;
  const text = frames
    .pipeThrough(sseStream({ sentinel: options.format === "ui_sdk", id }))
    .pipeThrough(keepaliveStream(options.keepaliveMs));
  return new Response(text.pipeThrough(new TextEncoderStream()), {
    status: 200,
    headers: { ...headers, ...SSE_HEADERS },
  });
}

/** The reference implementation's version of the batch answer's shape. */
const BATCH_VERSION = "2025.07.14";

/**
 * The batch (JSON) answer of a turn; streamed answers carry the same turn as SSE or NDJSON frames.
 * Under `ui_sdk` the one message is the AI SDK's UIMessage (its parts are the SDK's, so left open here).
 */
export const batchTurnSchema = z.strictObject({
  version: z.literal(BATCH_VERSION),
  status: z
    .strictObject({ code: z.number().int(), message: z.string() })
    .describe("200 Success, or 500 with the turn's first error (data.outputs.errors has them all)"),
  trace_id: z.string(),
  span_id: z.string().describe("The run's invoke_agent span"),
  session_id: z.string(),
  data: z.strictObject({
    outputs: batchOutputsSchema.extend({
      messages: z.union([
        batchOutputsSchema.shape.messages,
        // The AI SDK's UIMessage: the turn's metadata (run, session, trace) beside its parts.
        z.array(
          z.object({
            id: z.string(),
            role: z.literal("assistant"),
            metadata: z.record(z.string(), z.unknown()).optional(),
            parts: z.array(z.unknown()),
          }),
        ),
      ]),
    }),
  }),
});

async function batchBody(events: ReadableStream<NativeEvent>, options: TurnResponseOptions) {
  const collected: NativeEvent[] = [];
  for await (const event of events as unknown as AsyncIterable<NativeEvent>) collected.push(event);
  const outputs = foldBatch(collected, { trim: options.trim });
  const data =
    options.format === "ui_sdk"
      ? { outputs: { ...outputs, messages: [await toUiMessage(collected, options)] } }
      : { outputs };
  // The reference's envelope: a client reads the turn's outcome from status, not from the HTTP code.
  const status = outputs.errors?.length ? { code: 500, message: outputs.errors[0] } : { code: 200, message: "Success" };
  return {
    version: BATCH_VERSION,
    status,
    trace_id: options.traceId,
    span_id: options.spanId,
    session_id: options.sessionId,
    data,
  };
}

/** The ui_sdk batch: the same turn, reassembled by the AI SDK's own reader into one UIMessage. */
async function toUiMessage(events: NativeEvent[], options: TurnResponseOptions): Promise<UIMessage> {
  const projection = new UiMessageProjection({
    messageId: options.messageId,
    sessionId: options.sessionId,
    continuesRunId: options.continuesRunId,
  });
  const chunks = [...events.flatMap((event) => projection.push(event)), ...projection.end()];
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  let last: UIMessage | undefined;
  for await (const message of readUIMessageStream({ stream })) last = message;
  return last ?? { id: options.messageId, role: "assistant", parts: [] };
}
