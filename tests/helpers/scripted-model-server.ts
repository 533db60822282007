import http from "node:http";
import type { AddressInfo, Socket } from "node:net";

/**
 * A real HTTP model server for tests and benchmarks. It speaks the OpenAI chat-completions and
 * Responses, Anthropic messages and Gemini streamGenerateContent streaming dialects, plays one scripted reply per request (FIFO, the last
 * one repeats), and fails on demand. Provider packages reach it through their production code
 * path; only the base URL differs. Anthropic's token counting (`/v1/messages/count_tokens`,
 * which Claude Code may call on the side) is answered with a count and takes no script.
 * OpenAI embeddings (`/v1/embeddings`) answer with `letterEmbedding` of each input, so texts
 * with similar letters are close; a `status` or `hang` script applies to them too.
 */
export interface ScriptedToolCall {
  id: string;
  name: string;
  /** Sent as the arguments JSON, split into `argumentChunks` pieces. */
  input: unknown;
}

export type Script =
  | {
      kind: "reply";
      reasoning?: string;
      text?: string;
      toolCalls?: ScriptedToolCall[];
      /**
       * `input` is the whole prompt; the cache counts are parts of it and `reasoning` part of
       * `output`, each sent in the dialect's own fields (Anthropic's `input_tokens` leaves cache out).
       */
      usage?: ScriptedUsage;
      /** Raw stop reason in the dialect (`stop`, `end_turn`, `tool_calls`, ...); derived when absent. */
      finish?: string;
      /** How many pieces each text, reasoning and argument string is cut into. */
      chunks?: number;
      /** Waits this long before answering (a model's latency). */
      delayMs?: number;
      /** Waits this long between stream frames (a reply that takes a while to write). */
      frameDelayMs?: number;
    }
  /** Answers with this HTTP status and a provider-shaped error body. */
  | { kind: "status"; status: number; message?: string }
  /** Streams some text, then drops the connection mid-stream. */
  | { kind: "break"; text?: string }
  /** Streams some text, then the provider's own error event (an upstream 500 after the reply began). */
  | { kind: "error-event"; text?: string }
  /** Sends headers and nothing else; the socket stays open until the client closes it. */
  | { kind: "hang" };

export interface RecordedRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: any;
}

export interface ScriptedUsage {
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
  cacheWrite1h?: number;
  reasoning?: number;
}

export interface ScriptedModelServer {
  url: string;
  /** Base URL for `@ai-sdk/openai` (`/v1`) and `@ai-sdk/anthropic` (`/v1`). */
  baseUrl: string;
  requests: RecordedRequest[];
  /** Replaces the queue. */
  script(...scripts: Script[]): void;
  /** Answers each request by what it asks (concurrent callers); `undefined` falls back to the queue. */
  respondWith(responder: ((request: RecordedRequest) => Script | undefined) | undefined): void;
  /** Resolves when a request's socket closes before the server finished its reply. */
  nextAbort(): Promise<void>;
  /** Resolves when the next request has arrived. */
  nextRequest(): Promise<RecordedRequest>;
  /** Resolves once `count` requests have arrived in all since the server started (at once if they have). */
  requestsReceived(count: number): Promise<void>;
  close(): Promise<void>;
}

const pieces = (text: string, count: number): string[] => {
  if (!text) return [];
  const size = Math.max(1, Math.ceil(text.length / count));
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
};

/** A deterministic embedding: how often each letter a-z occurs (lower-cased), so similar texts are close. */
export function letterEmbedding(text: string): number[] {
  const counts = new Array<number>(26).fill(0);
  for (const char of text.toLowerCase()) {
    const code = char.charCodeAt(0) - 97;
    if (code >= 0 && code < 26) counts[code]++;
  }
  return counts;
}

/** `port`: a fixed port (the browser tests start the app pointing at it); 0 picks a free one. */
export async function startScriptedModelServer(options: { port?: number } = {}): Promise<ScriptedModelServer> {
  let queue: Script[] = [{ kind: "reply", text: "Hello!" }];
  let responder: ((request: RecordedRequest) => Script | undefined) | undefined;
  const requests: RecordedRequest[] = [];
  const abortWaiters: Array<() => void> = [];
  const requestWaiters: Array<(request: RecordedRequest) => void> = [];
  const sockets = new Set<Socket>();

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");
    let body: any;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      body = raw;
    }
    const path = (req.url ?? "").split("?")[0];
    if (path.endsWith("/messages/count_tokens")) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ input_tokens: Math.ceil(raw.length / 4) }));
      return;
    }
    const recorded = { path, headers: req.headers, body };
    requests.push(recorded);
    requestWaiters.splice(0).forEach((wake) => wake(recorded));
    const script = responder?.(recorded) ?? (queue.length > 1 ? queue.shift()! : queue[0]);
    let finished = false;
    res.on("close", () => {
      if (!finished) abortWaiters.splice(0).forEach((wake) => wake());
    });
    const dialect = path.endsWith("/messages")
      ? "anthropic"
      : path.includes(":streamGenerateContent")
        ? "gemini"
        : path.endsWith("/responses")
          ? "responses"
          : "openai";
    const done = () => {
      finished = true;
      res.end();
    };

    if (script.kind === "status") {
      res.writeHead(script.status, { "content-type": "application/json" });
      const message = script.message ?? `scripted failure ${script.status}`;
      const error =
        dialect === "anthropic"
          ? { type: "error", error: { type: "api_error", message } }
          : dialect === "gemini"
            ? { error: { code: script.status, message, status: "UNAUTHENTICATED" } }
            : { error: { message, type: "invalid_request_error", code: null } };
      res.write(JSON.stringify(error));
      return done();
    }
    if (path.endsWith("/embeddings")) {
      if (script.kind === "hang") return res.writeHead(200, { "content-type": "application/json" }).flushHeaders();
      const texts: string[] = Array.isArray(body?.input) ? body.input : [body?.input];
      const data = texts.map((text, index) => ({
        object: "embedding",
        index,
        embedding: letterEmbedding(String(text)),
      }));
      const tokens = texts.reduce((sum, text) => sum + Math.ceil(String(text).length / 4), 0);
      res.writeHead(200, { "content-type": "application/json" });
      res.write(
        JSON.stringify({
          object: "list",
          data,
          model: String(body?.model ?? "m"),
          usage: { prompt_tokens: tokens, total_tokens: tokens },
        }),
      );
      return done();
    }
    if (script.kind === "reply" && script.delayMs) await new Promise((resolve) => setTimeout(resolve, script.delayMs));
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    res.flushHeaders();
    if (script.kind === "hang") return;
    const emit = { anthropic: anthropicFrames, gemini: geminiFrames, responses: responsesFrames, openai: openaiFrames }[
      dialect
    ];
    if (script.kind === "break") {
      const frames = emit({ kind: "reply", text: script.text ?? "partial", chunks: 2 }, String(body?.model ?? "m"));
      for (const frame of frames.slice(0, 3)) res.write(frame);
      finished = true;
      // Let the client start consuming the stream before the connection drops.
      setTimeout(() => res.socket?.destroy(), 20);
      return;
    }
    if (script.kind === "error-event") {
      const frames = emit({ kind: "reply", text: script.text ?? "partial", chunks: 2 }, String(body?.model ?? "m"));
      for (const frame of frames.slice(0, 3)) res.write(frame);
      res.write(MID_STREAM_ERRORS[dialect]);
      return done();
    }
    // Mistral's API (and its package) sends every tool call whole; the others stream arguments.
    const whole = path.includes("/mistral/");
    for (const frame of emit(script, String(body?.model ?? "m"), whole)) {
      if (script.frameDelayMs) await new Promise((resolve) => setTimeout(resolve, script.frameDelayMs));
      if (res.destroyed) return;
      res.write(frame);
    }
    done();
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  // Idle keep-alive sockets are closed by the client only (undici, after 4 s). With the server's
  // own 5 s timeout, a test whose process was busy for seconds (the loop blocked, both timers due
  // at once) could send its next request on a socket the server was closing: ECONNRESET, a
  // retryable failure the test had not asked for.
  server.keepAliveTimeout = 0;
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    baseUrl: `${url}/v1`,
    requests,
    script: (...scripts) => {
      queue = scripts;
    },
    respondWith: (fn) => {
      responder = fn;
    },
    nextAbort: () => new Promise<void>((resolve) => abortWaiters.push(resolve)),
    nextRequest: () => new Promise<RecordedRequest>((resolve) => requestWaiters.push(resolve)),
    requestsReceived: async (count) => {
      while (requests.length < count) await new Promise<RecordedRequest>((resolve) => requestWaiters.push(resolve));
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

type Reply = Extract<Script, { kind: "reply" }>;

/** Each dialect's error event inside a 200 stream. */
const MID_STREAM_ERRORS: Record<string, string> = {
  openai: `data: ${JSON.stringify({ error: { message: "The server had an error while processing your request.", type: "server_error", param: null, code: null } })}\n\n`,
  responses: `event: error\ndata: ${JSON.stringify({ type: "error", code: "server_error", message: "The server had an error.", param: null, sequence_number: 9 })}\n\n`,
  anthropic: `event: error\ndata: ${JSON.stringify({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } })}\n\n`,
  gemini: `data: ${JSON.stringify({ error: { code: 500, message: "Internal error encountered.", status: "INTERNAL" } })}\n\n`,
};

function openaiFrames(script: Reply, model: string, wholeToolCalls = false): string[] {
  const n = script.chunks ?? 3;
  const base = { id: "chatcmpl-scripted", object: "chat.completion.chunk", created: 1_700_000_000, model };
  const frame = (delta: object) =>
    `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: null }] })}\n\n`;
  const out: string[] = [frame({ role: "assistant", content: "" })];
  // `reasoning_content` is the de-facto field of OpenAI-compatible reasoning servers.
  for (const piece of pieces(script.reasoning ?? "", n)) out.push(frame({ reasoning_content: piece }));
  for (const piece of pieces(script.text ?? "", n)) out.push(frame({ content: piece }));
  (script.toolCalls ?? []).forEach((call, index) => {
    const args = JSON.stringify(call.input);
    out.push(
      frame({
        tool_calls: [
          {
            index,
            id: call.id,
            type: "function",
            function: { name: call.name, arguments: wholeToolCalls ? args : "" },
          },
        ],
      }),
    );
    if (!wholeToolCalls)
      for (const piece of pieces(args, n)) out.push(frame({ tool_calls: [{ index, function: { arguments: piece } }] }));
  });
  const usage = script.usage ?? { input: 10, output: 5 };
  const tokens = {
    prompt_tokens: usage.input,
    completion_tokens: usage.output,
    total_tokens: usage.input + usage.output,
    ...(usage.cacheRead ? { prompt_tokens_details: { cached_tokens: usage.cacheRead } } : {}),
    ...(usage.reasoning ? { completion_tokens_details: { reasoning_tokens: usage.reasoning } } : {}),
  };
  // Usage rides on the finishing chunk (every OpenAI-style client reads it there; Mistral's cannot
  // take a chunk without choices), and Groq reads it from its own `x_groq` field.
  out.push(
    `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: {}, finish_reason: script.finish ?? (script.toolCalls?.length ? "tool_calls" : "stop") }], usage: tokens, x_groq: { usage: tokens } })}\n\n`,
  );
  out.push("data: [DONE]\n\n");
  return out;
}

function anthropicFrames(script: Reply, model: string): string[] {
  const n = script.chunks ?? 3;
  const usage = script.usage ?? { input: 10, output: 5 };
  const out: string[] = [];
  const event = (type: string, data: object) =>
    out.push(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  event("message_start", {
    message: {
      id: "msg_scripted",
      type: "message",
      role: "assistant",
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: {
        input_tokens: usage.input - (usage.cacheRead ?? 0) - (usage.cacheWrite ?? 0) - (usage.cacheWrite1h ?? 0),
        output_tokens: 1,
        ...(usage.cacheRead ? { cache_read_input_tokens: usage.cacheRead } : {}),
        ...(usage.cacheWrite || usage.cacheWrite1h
          ? {
              cache_creation_input_tokens: (usage.cacheWrite ?? 0) + (usage.cacheWrite1h ?? 0),
              cache_creation: {
                ephemeral_5m_input_tokens: usage.cacheWrite ?? 0,
                ephemeral_1h_input_tokens: usage.cacheWrite1h ?? 0,
              },
            }
          : {}),
      },
    },
  });
  let index = 0;
  if (script.reasoning) {
    event("content_block_start", { index, content_block: { type: "thinking", thinking: "", signature: "" } });
    for (const piece of pieces(script.reasoning, n))
      event("content_block_delta", { index, delta: { type: "thinking_delta", thinking: piece } });
    event("content_block_delta", { index, delta: { type: "signature_delta", signature: "c2lnbmF0dXJl" } });
    event("content_block_stop", { index });
    index++;
  }
  if (script.text) {
    event("content_block_start", { index, content_block: { type: "text", text: "" } });
    for (const piece of pieces(script.text, n))
      event("content_block_delta", { index, delta: { type: "text_delta", text: piece } });
    event("content_block_stop", { index });
    index++;
  }
  for (const call of script.toolCalls ?? []) {
    event("content_block_start", {
      index,
      content_block: { type: "tool_use", id: call.id, name: call.name, input: {} },
    });
    for (const piece of pieces(JSON.stringify(call.input), n))
      event("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: piece } });
    event("content_block_stop", { index });
    index++;
  }
  event("message_delta", {
    delta: { stop_reason: script.finish ?? (script.toolCalls?.length ? "tool_use" : "end_turn"), stop_sequence: null },
    usage: { output_tokens: usage.output },
  });
  event("message_stop", {});
  return out;
}

function geminiFrames(script: Reply, model: string): string[] {
  const n = script.chunks ?? 3;
  const usage = script.usage ?? { input: 10, output: 5 };
  const frame = (parts: object[], extra: object = {}) =>
    `data: ${JSON.stringify({ candidates: [{ content: { role: "model", parts }, index: 0, ...extra }], modelVersion: model })}\n\n`;
  const out: string[] = [];
  for (const piece of pieces(script.reasoning ?? "", n)) out.push(frame([{ text: piece, thought: true }]));
  for (const piece of pieces(script.text ?? "", n)) out.push(frame([{ text: piece }]));
  // Gemini sends each function call whole, in one part.
  for (const call of script.toolCalls ?? []) out.push(frame([{ functionCall: { name: call.name, args: call.input } }]));
  out.push(
    `data: ${JSON.stringify({
      candidates: [
        { content: { role: "model", parts: [{ text: "" }] }, finishReason: script.finish ?? "STOP", index: 0 },
      ],
      usageMetadata: {
        promptTokenCount: usage.input,
        candidatesTokenCount: usage.output,
        totalTokenCount: usage.input + usage.output,
      },
      modelVersion: model,
    })}\n\n`,
  );
  return out;
}

function responsesFrames(script: Reply, model: string): string[] {
  const n = script.chunks ?? 3;
  const usage = script.usage ?? { input: 10, output: 5 };
  const out: string[] = [];
  const event = (type: string, data: object) =>
    out.push(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  event("response.created", {
    response: { id: "resp_scripted", created_at: 1_700_000_000, model, status: "in_progress", output: [] },
  });
  let index = 0;
  if (script.reasoning) {
    const id = "rs_scripted";
    event("response.output_item.added", { output_index: index, item: { type: "reasoning", id, summary: [] } });
    event("response.reasoning_summary_part.added", {
      item_id: id,
      output_index: index,
      summary_index: 0,
      part: { type: "summary_text", text: "" },
    });
    for (const piece of pieces(script.reasoning, n))
      event("response.reasoning_summary_text.delta", {
        item_id: id,
        output_index: index,
        summary_index: 0,
        delta: piece,
      });
    event("response.reasoning_summary_part.done", {
      item_id: id,
      output_index: index,
      summary_index: 0,
      part: { type: "summary_text", text: script.reasoning },
    });
    event("response.output_item.done", {
      output_index: index,
      item: { type: "reasoning", id, summary: [{ type: "summary_text", text: script.reasoning }] },
    });
    index++;
  }
  if (script.text) {
    const id = "msg_scripted";
    event("response.output_item.added", {
      output_index: index,
      item: { type: "message", id, role: "assistant", status: "in_progress", content: [] },
    });
    for (const piece of pieces(script.text, n))
      event("response.output_text.delta", { item_id: id, output_index: index, content_index: 0, delta: piece });
    event("response.output_item.done", {
      output_index: index,
      item: {
        type: "message",
        id,
        role: "assistant",
        status: "completed",
        content: [{ type: "output_text", text: script.text, annotations: [] }],
      },
    });
    index++;
  }
  for (const call of script.toolCalls ?? []) {
    const id = `fc_${call.id}`;
    const args = JSON.stringify(call.input);
    event("response.output_item.added", {
      output_index: index,
      item: { type: "function_call", id, call_id: call.id, name: call.name, arguments: "", status: "in_progress" },
    });
    for (const piece of pieces(args, n))
      event("response.function_call_arguments.delta", { item_id: id, output_index: index, delta: piece });
    event("response.function_call_arguments.done", { item_id: id, output_index: index, arguments: args });
    event("response.output_item.done", {
      output_index: index,
      item: { type: "function_call", id, call_id: call.id, name: call.name, arguments: args, status: "completed" },
    });
    index++;
  }
  event("response.completed", {
    response: {
      id: "resp_scripted",
      status: "completed",
      incomplete_details: null,
      usage: {
        input_tokens: usage.input,
        input_tokens_details: { cached_tokens: usage.cacheRead ?? 0 },
        output_tokens: usage.output,
        output_tokens_details: { reasoning_tokens: usage.reasoning ?? 0 },
        total_tokens: usage.input + usage.output,
      },
    },
  });
  return out;
}
