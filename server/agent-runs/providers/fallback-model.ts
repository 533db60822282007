import { APICallError, type LanguageModel } from "ai";
import type { ResolvedConnection } from "./connection";
import type { ProviderModel } from "./language-model";

type ModelV3 = Extract<LanguageModel, { specificationVersion: "v3" }>;
type CallOptions = Parameters<ModelV3["doStream"]>[0];
type StreamResult = Awaited<ReturnType<ModelV3["doStream"]>>;
type StreamPart = StreamResult["stream"] extends ReadableStream<infer P> ? P : never;

/** One try of one alias entry, as the trace records it. */
export interface FallbackAttempt {
  provider: string;
  model: string;
  /** `answered`, or why the next entry was tried (`status 429`, `status 503`, `timeout`, `connection refused`, `error event`); `failed` for the last. */
  outcome: string;
  startedAt: number;
  endedAt: number;
}

export interface FallbackEntry {
  connection: ResolvedConnection;
  model: ProviderModel;
}

/** One model call that got an answer: from which entry, after which attempts. */
export interface AnsweredCall {
  connection: ResolvedConnection;
  /** Every attempt since the previous answered call (a failed call the SDK retried included). */
  attempts: FallbackAttempt[];
}

/** One try of one entry with what it failed with (kept off the trace: only the turn's error words it). */
export interface EntryTry {
  connection: ResolvedConnection;
  /** As `FallbackAttempt.outcome`. */
  outcome: string;
  error?: unknown;
}

/** A model that tries an alias's entries in order, and what it tried. */
export interface FallbackRoute {
  model: ModelV3;
  /** The n-th call that got an answer (one per step of the turn). */
  call(index: number): AnsweredCall | undefined;
  /** Attempts after the last answered call: the turn's failure. */
  unanswered(): FallbackAttempt[];
  /**
   * The tries of the call a failure came from: those after the last answer when some came after
   * it (no entry answered), else the last answered call's (its reply broke off).
   */
  lastTries(): EntryTry[];
}

/**
 * A language model over an alias's entries: a call goes to the first entry, and on a 429, a 5xx,
 * a refused connection, no first part within `attemptTimeoutMs`, or an error event before any
 * content, to the next. Other failures (a 400, a rejected key) are the request's and end the call.
 * The first part of the stream is awaited before the attempt counts as answered, so a server that
 * accepts the connection and then says nothing is a timeout, not a stuck turn. Provider options
 * set under the first entry's key are passed to each entry under its own key.
 */
export function fallbackModel(
  entries: FallbackEntry[],
  options: { attemptTimeoutMs: number; onMove?: () => void },
): FallbackRoute {
  const calls: AnsweredCall[] = [];
  let attempts: FallbackAttempt[] = [];
  let tries: EntryTry[] = [];
  let answeredTries: EntryTry[] = [];
  const tried = (entry: FallbackEntry, outcome: string, startedAt: number, error?: unknown) => {
    attempts.push(attempt(entry, outcome, startedAt));
    tries.push({ connection: entry.connection, outcome, ...(error === undefined ? {} : { error }) });
  };
  const answer = (entry: FallbackEntry, startedAt: number) => {
    tried(entry, "answered", startedAt);
    calls.push({ connection: entry.connection, attempts });
    answeredTries = tries;
    attempts = [];
    tries = [];
  };
  const first = entries[0].model.model as ModelV3;
  const primaryKey = entries[0].model.optionsKey;

  const model: ModelV3 = {
    specificationVersion: "v3",
    provider: first.provider,
    modelId: first.modelId,
    supportedUrls: first.supportedUrls,
    doGenerate: async (call) => {
      for (let i = 0; ; i++) {
        const entry = entries[i];
        const startedAt = Date.now();
        try {
          const result = await (entry.model.model as ModelV3).doGenerate(callFor(call, entry, primaryKey));
          answer(entry, startedAt);
          return result;
        } catch (error) {
          const reason = call.abortSignal?.aborted ? undefined : fallbackReason(error, false);
          if (!reason || i === entries.length - 1) {
            tried(entry, reason ? `failed: ${reason}` : "failed", startedAt, error);
            throw error;
          }
          tried(entry, reason, startedAt, error);
          options.onMove?.();
        }
      }
    },
    doStream: async (call) => {
      for (let i = 0; ; i++) {
        const entry = entries[i];
        const startedAt = Date.now();
        const controller = new AbortController();
        const forward = () => controller.abort(call.abortSignal?.reason);
        call.abortSignal?.addEventListener("abort", forward, { once: true });
        let timedOut = false;
        const timer = setTimeout(() => {
          timedOut = true;
          controller.abort(new Error(`no answer within ${options.attemptTimeoutMs} ms`));
        }, options.attemptTimeoutMs);
        try {
          const result = await (entry.model.model as ModelV3).doStream({
            ...callFor(call, entry, primaryKey),
            abortSignal: controller.signal,
          });
          const reader = result.stream.getReader();
          const head: StreamPart[] = [];
          for (;;) {
            const next = await reader.read();
            if (next.done) break;
            head.push(next.value);
            if (
              next.value.type !== "stream-start" &&
              next.value.type !== "response-metadata" &&
              next.value.type !== "raw"
            )
              break;
          }
          clearTimeout(timer);
          if (head.at(-1)?.type === "error" && i < entries.length - 1) {
            void reader.cancel().catch(() => undefined);
            throw new EventError();
          }
          answer(entry, startedAt);
          return { ...result, stream: replay(head, reader) };
        } catch (error) {
          clearTimeout(timer);
          call.abortSignal?.removeEventListener("abort", forward);
          const reason = call.abortSignal?.aborted ? undefined : fallbackReason(error, timedOut);
          if (!reason || i === entries.length - 1) {
            tried(entry, reason ? `failed: ${reason}` : "failed", startedAt, error);
            throw error;
          }
          tried(entry, reason, startedAt, error);
          options.onMove?.();
        }
      }
    },
  };
  return {
    model,
    call: (index) => calls[index],
    unanswered: () => attempts,
    lastTries: () => (tries.length ? tries : answeredTries),
  };
}

class EventError extends Error {}

function attempt(entry: FallbackEntry, outcome: string, startedAt: number): FallbackAttempt {
  return {
    provider: entry.connection.provider,
    model: entry.connection.model,
    outcome,
    startedAt,
    endedAt: Date.now(),
  };
}

function callFor(call: CallOptions, entry: FallbackEntry, primaryKey: string): CallOptions {
  const own = call.providerOptions?.[primaryKey];
  if (!own || entry.model.optionsKey === primaryKey) return call;
  const rest = { ...call.providerOptions };
  delete rest[primaryKey];
  return { ...call, providerOptions: { ...rest, [entry.model.optionsKey]: own } };
}

/** Why a failure moves on to the next entry; undefined when it should not. */
function fallbackReason(error: unknown, timedOut: boolean): string | undefined {
  if (timedOut) return "timeout";
  if (error instanceof EventError) return "error event";
  if (APICallError.isInstance(error) && error.statusCode !== undefined) {
    if (error.statusCode === 429 || error.statusCode >= 500) return `status ${error.statusCode}`;
    return undefined;
  }
  return refused(error) ? "connection refused" : undefined;
}

function refused(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== "object" || depth > 6) return false;
  const node = error as { code?: unknown; cause?: unknown; errors?: unknown };
  if (node.code === "ECONNREFUSED") return true;
  return [node.cause, ...(Array.isArray(node.errors) ? node.errors : [])].some((next) => refused(next, depth + 1));
}

/** The parts read ahead, then the rest of the provider's stream. */
function replay(head: StreamPart[], reader: ReadableStreamDefaultReader<StreamPart>): ReadableStream<StreamPart> {
  return new ReadableStream<StreamPart>({
    start(controller) {
      for (const part of head) controller.enqueue(part);
    },
    async pull(controller) {
      const next = await reader.read();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
}
