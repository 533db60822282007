import { z } from "zod";
import { toFinishReason } from "./finish-reason";
import type { NativeEvent, RunUsage } from "./native-event";

export interface OpenAiResponsesOptions {
  /** `resp_...`: also the prefix of the output items' ids. */
  id: string;
  model: string;
  /** Unix seconds. */
  createdAt: number;
  previousResponseId: string | null;
}

export type ResponseStatus = "in_progress" | "completed" | "incomplete" | "failed";

export interface OutputText {
  type: "output_text";
  text: string;
  annotations: [];
}

export type ResponseOutputItem =
  | { type: "message"; id: string; status: "in_progress" | "completed"; role: "assistant"; content: OutputText[] }
  | {
      type: "function_call";
      id: string;
      call_id: string;
      name: string;
      arguments: string;
      status: "in_progress" | "completed";
    };

export interface ResponseObject {
  id: string;
  object: "response";
  created_at: number;
  status: ResponseStatus;
  error: { code: "server_error"; message: string } | null;
  incomplete_details: { reason: "max_output_tokens" | "content_filter" } | null;
  model: string;
  output: ResponseOutputItem[];
  parallel_tool_calls: true;
  previous_response_id: string | null;
  tool_choice: "auto";
  tools: [];
  usage: {
    input_tokens: number;
    input_tokens_details: { cached_tokens: 0 };
    output_tokens: number;
    output_tokens_details: { reasoning_tokens: 0 };
    total_tokens: number;
  } | null;
  metadata: Record<string, never>;
}

const outputStatusWire = z.enum(["in_progress", "completed"]);

/** OpenAI's `response` object, as `response()` builds it. */
export const responseObjectWire = z.strictObject({
  id: z.string(),
  object: z.literal("response"),
  created_at: z.number().int(),
  status: z.enum(["in_progress", "completed", "incomplete", "failed"]),
  error: z.strictObject({ code: z.literal("server_error"), message: z.string() }).nullable(),
  incomplete_details: z.strictObject({ reason: z.enum(["max_output_tokens", "content_filter"]) }).nullable(),
  model: z.string(),
  output: z.array(
    z.discriminatedUnion("type", [
      z.strictObject({
        type: z.literal("message"),
        id: z.string(),
        status: outputStatusWire,
        role: z.literal("assistant"),
        content: z.array(
          z.strictObject({ type: z.literal("output_text"), text: z.string(), annotations: z.array(z.never()) }),
        ),
      }),
      z.strictObject({
        type: z.literal("function_call"),
        id: z.string(),
        call_id: z.string(),
        name: z.string(),
        arguments: z.string(),
        status: outputStatusWire,
      }),
    ]),
  ),
  parallel_tool_calls: z.literal(true),
  previous_response_id: z.string().nullable(),
  tool_choice: z.literal("auto"),
  tools: z.array(z.never()),
  usage: z
    .strictObject({
      input_tokens: z.number().int(),
      input_tokens_details: z.strictObject({ cached_tokens: z.literal(0) }),
      output_tokens: z.number().int(),
      output_tokens_details: z.strictObject({ reasoning_tokens: z.literal(0) }),
      total_tokens: z.number().int(),
    })
    .nullable(),
  metadata: z.strictObject({}),
});

/** One Responses stream event: `type` is also the SSE `event:` name. */
export type ResponseStreamEvent = { type: string; sequence_number: number } & Record<string, unknown>;

/**
 * Native events to OpenAI Responses stream events, and the same turn as one `response` object
 * (the one `response.completed` carries). Each text block is one `message` output item; a client
 * tool the turn pauses on is a `function_call` item; server-side tools stay inside the run. A run
 * error ends the stream with `error` and `response.failed`. Pure.
 */
export class OpenAiResponsesProjection {
  private sequence = 0;
  private started = false;
  private finished = false;
  private readonly output: ResponseOutputItem[] = [];
  private openMessage:
    { item: Extract<ResponseOutputItem, { type: "message" }>; index: number; text: OutputText } | undefined;
  private usage: RunUsage | undefined;
  private status: ResponseStatus = "in_progress";
  private incomplete: ResponseObject["incomplete_details"] = null;
  readonly errors: string[] = [];

  constructor(private readonly options: OpenAiResponsesOptions) {}

  push(event: NativeEvent): ResponseStreamEvent[] {
    if (this.finished) return [];
    const out = this.open();
    switch (event.type) {
      case "message_delta":
        if (event.delta) out.push(...this.text(event.delta));
        break;
      case "message":
        if (event.text) out.push(...this.text(event.text), ...this.closeMessage());
        break;
      case "message_end":
        out.push(...this.closeMessage());
        break;
      case "interaction_request": {
        if (event.kind !== "client_tool") break;
        out.push(...this.closeMessage());
        const payload = event.payload as { toolCallId?: unknown; toolName?: unknown; input?: unknown };
        const callId = typeof payload.toolCallId === "string" ? payload.toolCallId : event.id;
        const args = JSON.stringify(payload.input ?? {});
        const index = this.output.length;
        const item: ResponseOutputItem = {
          type: "function_call",
          id: this.itemId("fc", index),
          call_id: callId,
          name: String(payload.toolName ?? ""),
          arguments: "",
          status: "in_progress",
        };
        out.push(this.event("response.output_item.added", { output_index: index, item: { ...item } }));
        out.push(
          this.event("response.function_call_arguments.delta", { item_id: item.id, output_index: index, delta: args }),
        );
        out.push(
          this.event("response.function_call_arguments.done", {
            item_id: item.id,
            output_index: index,
            arguments: args,
          }),
        );
        Object.assign(item, { arguments: args, status: "completed" });
        this.output.push(item);
        out.push(this.event("response.output_item.done", { output_index: index, item }));
        break;
      }
      case "usage":
        this.usage = event;
        break;
      case "error":
        this.errors.push(event.message);
        out.push(
          ...this.closeMessage(),
          this.event("error", { code: "server_error", message: event.message, param: null }),
        );
        break;
      case "done":
        out.push(...this.finish(event.stopReason));
        break;
      default:
        break;
    }
    return out;
  }

  /** Closes a stream whose source ended without `done`. */
  end(): ResponseStreamEvent[] {
    if (this.finished) return [];
    return [...this.open(), ...this.finish(undefined)];
  }

  /** The response object as it stands (final once the stream has ended). */
  response(): ResponseObject {
    const { id, createdAt, model, previousResponseId } = this.options;
    return {
      id,
      object: "response",
      created_at: createdAt,
      status: this.status,
      error: this.errors.length ? { code: "server_error", message: this.errors.join("\n") } : null,
      incomplete_details: this.incomplete,
      model,
      output: this.output.map((item) => structuredClone(item)),
      parallel_tool_calls: true,
      previous_response_id: previousResponseId,
      tool_choice: "auto",
      tools: [],
      usage: this.usage
        ? {
            input_tokens: this.usage.input,
            input_tokens_details: { cached_tokens: 0 },
            output_tokens: this.usage.output,
            output_tokens_details: { reasoning_tokens: 0 },
            total_tokens: this.usage.total,
          }
        : null,
      metadata: {},
    };
  }

  private open(): ResponseStreamEvent[] {
    if (this.started) return [];
    this.started = true;
    return [
      this.event("response.created", { response: this.response() }),
      this.event("response.in_progress", { response: this.response() }),
    ];
  }

  private text(delta: string): ResponseStreamEvent[] {
    const out: ResponseStreamEvent[] = [];
    if (!this.openMessage) {
      const index = this.output.length;
      const text: OutputText = { type: "output_text", text: "", annotations: [] };
      const item: Extract<ResponseOutputItem, { type: "message" }> = {
        type: "message",
        id: this.itemId("msg", index),
        status: "in_progress",
        role: "assistant",
        content: [],
      };
      this.output.push(item);
      this.openMessage = { item, index, text };
      out.push(this.event("response.output_item.added", { output_index: index, item: structuredClone(item) }));
      out.push(
        this.event("response.content_part.added", {
          item_id: item.id,
          output_index: index,
          content_index: 0,
          part: { ...text },
        }),
      );
      item.content.push(text);
    }
    const { item, index, text } = this.openMessage;
    text.text += delta;
    out.push(
      this.event("response.output_text.delta", {
        item_id: item.id,
        output_index: index,
        content_index: 0,
        delta,
        logprobs: [],
      }),
    );
    return out;
  }

  private closeMessage(): ResponseStreamEvent[] {
    if (!this.openMessage) return [];
    const { item, index, text } = this.openMessage;
    this.openMessage = undefined;
    item.status = "completed";
    return [
      this.event("response.output_text.done", {
        item_id: item.id,
        output_index: index,
        content_index: 0,
        text: text.text,
        logprobs: [],
      }),
      this.event("response.content_part.done", {
        item_id: item.id,
        output_index: index,
        content_index: 0,
        part: { ...text },
      }),
      this.event("response.output_item.done", { output_index: index, item: structuredClone(item) }),
    ];
  }

  private finish(stopReason: string | undefined): ResponseStreamEvent[] {
    const out = this.closeMessage();
    this.finished = true;
    const reason = toFinishReason(stopReason);
    if (this.errors.length) this.status = "failed";
    else if (reason === "length" || reason === "content-filter") {
      this.status = "incomplete";
      this.incomplete = { reason: reason === "length" ? "max_output_tokens" : "content_filter" };
    } else this.status = "completed";
    out.push(this.event(`response.${this.status}`, { response: this.response() }));
    return out;
  }

  private itemId(prefix: "msg" | "fc", index: number): string {
    return `${prefix}_${this.options.id.replace(/^resp_/, "")}_${index}`;
  }

  private event(type: string, fields: Record<string, unknown>): ResponseStreamEvent {
    return { type, sequence_number: this.sequence++, ...fields };
  }
}

/** Native events to Responses stream events (SSE with `event:` lines downstream, no `[DONE]`). */
export function openAiResponsesStream(
  options: OpenAiResponsesOptions,
): TransformStream<NativeEvent, ResponseStreamEvent> {
  const projection = new OpenAiResponsesProjection(options);
  return new TransformStream({
    transform(event, controller) {
      for (const item of projection.push(event)) controller.enqueue(item);
    },
    flush(controller) {
      for (const item of projection.end()) controller.enqueue(item);
    },
  });
}
