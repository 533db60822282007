import type { UIMessageChunk } from "ai";
import { toUiFinishReason } from "./finish-reason";
import { NO_OUTPUT_MESSAGE, type NativeEvent, type RunUsage } from "./native-event";

export interface UiProjectionOptions {
  messageId: string;
  sessionId: string;
  /** The paused run this turn continues: named in the `start` chunk's metadata beside the session. */
  continuesRunId?: string;
}

type Chunk = UIMessageChunk;

/**
 * Native events to AI SDK v6 UI Message Stream parts. Pure and always terminating: whatever the
 * input, the output opens with start/start-step, closes every block it opened, and ends with
 * finish-step/finish (the interface contract "Stream events", rules 1-4).
 */
export class UiMessageProjection {
  private started = false;
  private finished = false;
  private readonly openText = new Set<string>();
  private readonly openReasoning = new Set<string>();
  private readonly seenTools = new Map<string, string>();
  private oneShot = 0;
  private usage: RunUsage | undefined;

  constructor(private readonly options: UiProjectionOptions) {}

  push(event: NativeEvent): Chunk[] {
    if (this.finished) return [];
    const out = this.open();
    switch (event.type) {
      case "message_start":
        this.openText.add(event.id);
        out.push({ type: "text-start", id: event.id });
        break;
      case "message_delta":
        if (!this.openText.has(event.id)) out.push(...this.push({ type: "message_start", id: event.id }));
        out.push({ type: "text-delta", id: event.id, delta: event.delta });
        break;
      case "message_end":
        if (this.openText.delete(event.id)) out.push({ type: "text-end", id: event.id });
        break;
      case "message": {
        const id = `text-${this.oneShot++}`;
        out.push({ type: "text-start", id }, { type: "text-delta", id, delta: event.text }, { type: "text-end", id });
        break;
      }
      case "thought_start":
        this.openReasoning.add(event.id);
        out.push({ type: "reasoning-start", id: event.id });
        break;
      case "thought_delta":
        if (!this.openReasoning.has(event.id)) out.push(...this.push({ type: "thought_start", id: event.id }));
        out.push({ type: "reasoning-delta", id: event.id, delta: event.delta });
        break;
      case "thought_end":
        if (this.openReasoning.delete(event.id)) out.push({ type: "reasoning-end", id: event.id });
        break;
      case "thought": {
        const id = `reasoning-${this.oneShot++}`;
        out.push(
          { type: "reasoning-start", id },
          { type: "reasoning-delta", id, delta: event.text },
          { type: "reasoning-end", id },
        );
        break;
      }
      case "tool_call":
        out.push(...this.toolInput(event.id, event.name, event.rawInput ?? event.input ?? {}));
        if (event.render !== undefined)
          out.push({ type: "data-render", data: { toolCallId: event.id, render: event.render } });
        break;
      case "tool_result":
        if (event.denied) out.push({ type: "tool-output-denied", toolCallId: event.id });
        else if (event.isError)
          out.push({ type: "tool-output-error", toolCallId: event.id, errorText: errorText(event.output) });
        else out.push({ type: "tool-output-available", toolCallId: event.id, output: event.output ?? null });
        if (event.render !== undefined)
          out.push({ type: "data-render", data: { toolCallId: event.id, render: event.render } });
        break;
      case "interaction_request":
        out.push(...this.interaction(event));
        break;
      case "interaction_response":
        out.push({ type: "data-interaction", id: event.id, data: { kind: event.kind, payload: event.payload } });
        break;
      case "data":
        out.push({ type: `data-${event.name}`, data: event.data, ...(event.transient ? { transient: true } : {}) });
        break;
      case "file":
        out.push({ type: "file", url: event.url, mediaType: event.mediaType });
        break;
      case "usage":
        this.usage = {
          input: event.input,
          output: event.output,
          total: event.total,
          ...(event.cost !== undefined ? { cost: event.cost } : {}),
        };
        break;
      case "error":
        out.push(...agentError("runner_error", event.message));
        break;
      case "done":
        out.push(...this.close(toUiFinishReason(event.stopReason), event.traceId));
        break;
    }
    return out;
  }

  /** The opening parts, sent as soon as the response starts (first byte before the model answers). */
  begin(): Chunk[] {
    return this.open();
  }

  /** Called when the event source ends: closes a stream that never saw `done`. */
  end(): Chunk[] {
    if (this.finished) return [];
    return [
      ...this.open(),
      ...agentError("agent_run_failed", "The run ended before it finished."),
      ...this.close("error"),
    ];
  }

  private open(): Chunk[] {
    if (this.started) return [];
    this.started = true;
    return [
      {
        type: "start",
        messageId: this.options.messageId,
        messageMetadata: {
          sessionId: this.options.sessionId,
          ...(this.options.continuesRunId ? { continuesRunId: this.options.continuesRunId } : {}),
        },
      },
      { type: "start-step" },
    ];
  }

  private toolInput(toolCallId: string, toolName: string, input: unknown): Chunk[] {
    const out: Chunk[] = [];
    if (!this.seenTools.has(toolCallId)) out.push({ type: "tool-input-start", toolCallId, toolName });
    this.seenTools.set(toolCallId, toolName);
    out.push({ type: "tool-input-available", toolCallId, toolName, input });
    return out;
  }

  private interaction(event: Extract<NativeEvent, { type: "interaction_request" }>): Chunk[] {
    const payload = event.payload;
    const toolCallId = typeof payload.toolCallId === "string" ? payload.toolCallId : undefined;
    if (event.kind === "user_input") return [{ type: "data-input-request", id: event.id, data: payload }];
    if (!toolCallId) return [{ type: "data-interaction", id: event.id, data: { kind: event.kind, payload } }];
    const out: Chunk[] = [];
    if (!this.seenTools.has(toolCallId)) {
      const name = typeof payload.toolName === "string" ? payload.toolName : "tool";
      out.push(...this.toolInput(toolCallId, name, payload.input ?? {}));
    }
    // A client tool is answered by the browser: the tool-input-* parts are the whole request.
    if (event.kind === "user_approval") out.push({ type: "tool-approval-request", approvalId: event.id, toolCallId });
    return out;
  }

  private close(finishReason: ReturnType<typeof toUiFinishReason>, traceId?: string): Chunk[] {
    this.finished = true;
    const out: Chunk[] = [];
    for (const id of this.openText) out.push({ type: "text-end", id });
    for (const id of this.openReasoning) out.push({ type: "reasoning-end", id });
    this.openText.clear();
    this.openReasoning.clear();
    const metadata: Record<string, unknown> = {};
    if (this.usage) metadata.usage = this.usage;
    if (traceId) metadata.traceId = traceId;
    out.push({ type: "finish-step" }, { type: "finish", finishReason, messageMetadata: metadata });
    return out;
  }
}

/**
 * A failure as the reference sends it: `data-agent-error{code, errorText}` (what a client reads the
 * kind of failure from), then the SDK's own `error` part. The empty turn's "no output" error is only
 * the `error` part there, so it stays one here.
 */
function agentError(code: "runner_error" | "agent_run_failed", errorText: string): Chunk[] {
  if (errorText === NO_OUTPUT_MESSAGE) return [{ type: "error", errorText }];
  return [
    { type: "data-agent-error", data: { code, errorText } },
    { type: "error", errorText },
  ];
}

function errorText(output: unknown): string {
  if (typeof output === "string") return output;
  if (output === undefined || output === null) return "The tool failed.";
  return JSON.stringify(output);
}

/** The projection as a stream stage. */
export function uiMessageStream(options: UiProjectionOptions): TransformStream<NativeEvent, Chunk> {
  const projection = new UiMessageProjection(options);
  return new TransformStream({
    start(controller) {
      for (const chunk of projection.begin()) controller.enqueue(chunk);
    },
    transform(event, controller) {
      for (const chunk of projection.push(event)) controller.enqueue(chunk);
    },
    flush(controller) {
      for (const chunk of projection.end()) controller.enqueue(chunk);
    },
  });
}
