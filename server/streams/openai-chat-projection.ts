import { z } from "zod";
import { toFinishReason } from "./finish-reason";
import type { NativeEvent, RunUsage } from "./native-event";

export interface OpenAiChatOptions {
  /** `chatcmpl-...`: the same on every chunk and on the batch object. */
  id: string;
  /** The `model` the caller named, echoed back. */
  model: string;
  /** Unix seconds. */
  created: number;
  /** `stream_options.include_usage`: one last chunk with empty choices and the usage. */
  includeUsage: boolean;
}

export type ChatFinishReason = "stop" | "length" | "tool_calls" | "content_filter";

export interface ChatToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

export interface ChatUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export interface ChatCompletionChunk {
  id: string;
  object: "chat.completion.chunk";
  created: number;
  model: string;
  choices: Array<{
    index: 0;
    delta: { role?: "assistant"; content?: string; tool_calls?: Array<ChatToolCall & { index: number }> };
    finish_reason: ChatFinishReason | null;
    logprobs: null;
  }>;
  usage?: ChatUsage | null;
}

/** What OpenAI streams in place of a chunk when the run fails after the response began. */
export interface ChatStreamError {
  error: { message: string; type: "server_error"; param: null; code: "agent_run_failed" };
}

const chatToolCallWire = z.strictObject({
  id: z.string(),
  type: z.literal("function"),
  function: z.strictObject({ name: z.string(), arguments: z.string() }),
});

/** OpenAI's non-streaming chat completion, as `completion()` builds it. */
export const chatCompletionWire = z.strictObject({
  id: z.string(),
  object: z.literal("chat.completion"),
  created: z.number().int(),
  model: z.string(),
  choices: z.array(
    z.strictObject({
      index: z.literal(0),
      message: z.strictObject({
        role: z.literal("assistant"),
        content: z.string().nullable(),
        refusal: z.null(),
        tool_calls: z.array(chatToolCallWire).optional(),
      }),
      finish_reason: z.enum(["stop", "length", "tool_calls", "content_filter"]),
      logprobs: z.null(),
    }),
  ),
  usage: z.strictObject({
    prompt_tokens: z.number().int(),
    completion_tokens: z.number().int(),
    total_tokens: z.number().int(),
  }),
});

export interface ChatCompletion {
  id: string;
  object: "chat.completion";
  created: number;
  model: string;
  choices: Array<{
    index: 0;
    message: { role: "assistant"; content: string | null; refusal: null; tool_calls?: ChatToolCall[] };
    finish_reason: ChatFinishReason;
    logprobs: null;
  }>;
  usage: ChatUsage;
}

export type ChatStreamItem = ChatCompletionChunk | ChatStreamError;

/** Separates two text blocks of one turn (text before and after a server-side tool step). */
export const BLOCK_SEPARATOR = "\n\n";

/**
 * Native events to OpenAI chat-completion chunks, and the same turn as one `chat.completion`.
 * Text deltas stream as `content`; server-side tool calls and their results stay inside the run
 * (the trace has them); a client tool the turn pauses on (`interaction_request` of kind
 * `client_tool`) becomes a `tool_calls` entry and the finish reason `tool_calls`. A run error
 * ends the stream with an `{error}` object, as OpenAI's own streams do. Pure.
 */
export class OpenAiChatProjection {
  private started = false;
  private finished = false;
  private text = "";
  private lastBlock: string | undefined;
  private readonly toolCalls: ChatToolCall[] = [];
  private usage: RunUsage | undefined;
  private finishReason: ChatFinishReason = "stop";
  /** The run's error messages; a batch caller gets them as an error response instead of a completion. */
  readonly errors: string[] = [];

  constructor(private readonly options: OpenAiChatOptions) {}

  push(event: NativeEvent): ChatStreamItem[] {
    if (this.finished) return [];
    const out = this.open();
    switch (event.type) {
      case "message_delta":
        if (event.delta) out.push(this.content(event.id, event.delta));
        break;
      case "message":
        if (event.text) out.push(this.content(`message-${this.toolCalls.length}-${this.text.length}`, event.text));
        break;
      case "interaction_request": {
        if (event.kind !== "client_tool") break;
        const payload = event.payload as { toolCallId?: unknown; toolName?: unknown; input?: unknown };
        const call: ChatToolCall = {
          id: typeof payload.toolCallId === "string" ? payload.toolCallId : event.id,
          type: "function",
          function: { name: String(payload.toolName ?? ""), arguments: JSON.stringify(payload.input ?? {}) },
        };
        out.push(this.chunk({ tool_calls: [{ index: this.toolCalls.length, ...call }] }, null));
        this.toolCalls.push(call);
        break;
      }
      case "usage":
        this.usage = event;
        break;
      case "error":
        this.errors.push(event.message);
        this.finished = true;
        out.push({ error: { message: event.message, type: "server_error", param: null, code: "agent_run_failed" } });
        break;
      case "done":
        this.finishReason = this.toolCalls.length ? "tool_calls" : chatFinishReason(event.stopReason);
        out.push(...this.finish());
        break;
      default:
        break;
    }
    return out;
  }

  /** Closes a stream whose source ended without `done`. */
  end(): ChatStreamItem[] {
    if (this.finished) return [];
    return [...this.open(), ...this.finish()];
  }

  /** The whole turn as OpenAI's non-streaming answer. */
  completion(): ChatCompletion {
    const { id, created, model } = this.options;
    const message: ChatCompletion["choices"][number]["message"] = {
      role: "assistant",
      content: this.text || null,
      refusal: null,
    };
    if (this.toolCalls.length) message.tool_calls = this.toolCalls;
    return {
      id,
      object: "chat.completion",
      created,
      model,
      choices: [{ index: 0, message, finish_reason: this.finishReason, logprobs: null }],
      usage: this.chatUsage(),
    };
  }

  private open(): ChatStreamItem[] {
    if (this.started) return [];
    this.started = true;
    return [this.chunk({ role: "assistant", content: "" }, null)];
  }

  private content(blockId: string, delta: string): ChatCompletionChunk {
    const separated =
      this.lastBlock !== undefined && this.lastBlock !== blockId && this.text ? BLOCK_SEPARATOR + delta : delta;
    this.lastBlock = blockId;
    this.text += separated;
    return this.chunk({ content: separated }, null);
  }

  private finish(): ChatStreamItem[] {
    this.finished = true;
    const out: ChatStreamItem[] = [this.chunk({}, this.finishReason)];
    if (this.options.includeUsage) out.push({ ...this.base(), choices: [], usage: this.chatUsage() });
    return out;
  }

  private chatUsage(): ChatUsage {
    return {
      prompt_tokens: this.usage?.input ?? 0,
      completion_tokens: this.usage?.output ?? 0,
      total_tokens: this.usage?.total ?? 0,
    };
  }

  private base() {
    const { id, created, model } = this.options;
    return { id, object: "chat.completion.chunk" as const, created, model };
  }

  private chunk(
    delta: ChatCompletionChunk["choices"][number]["delta"],
    finishReason: ChatFinishReason | null,
  ): ChatCompletionChunk {
    const chunk: ChatCompletionChunk = {
      ...this.base(),
      choices: [{ index: 0, delta, finish_reason: finishReason, logprobs: null }],
    };
    if (this.options.includeUsage) chunk.usage = null;
    return chunk;
  }
}

/** The finish reasons of `toFinishReason` (finish-reason.ts) in OpenAI's chat vocabulary; `other` and `unknown` read as `stop`. */
export function chatFinishReason(stopReason: string | undefined): ChatFinishReason {
  switch (toFinishReason(stopReason)) {
    case "length":
      return "length";
    case "content-filter":
      return "content_filter";
    default:
      return "stop";
  }
}

/** Native events to chat-completion chunks (SSE `data:` lines and `[DONE]` downstream). */
export function openAiChatStream(options: OpenAiChatOptions): TransformStream<NativeEvent, ChatStreamItem> {
  const projection = new OpenAiChatProjection(options);
  return new TransformStream({
    transform(event, controller) {
      for (const item of projection.push(event)) controller.enqueue(item);
    },
    flush(controller) {
      for (const item of projection.end()) controller.enqueue(item);
    },
  });
}
