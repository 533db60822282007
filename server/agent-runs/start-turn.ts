import { logger } from "@/server/core/logger";
import { addUsage, costOf, totalTokens, type TokenUsage } from "@/server/pricing";
import { isContentEvent, NO_OUTPUT_MESSAGE, type NativeEvent, type RunUsage } from "@/server/streams";
import { runErrorMessage } from "./run-error-message";
import type { ResolvedConnection } from "./providers/connection";
import type { Harness, HarnessOutcome, RunRecord, StepTiming, TurnInput } from "./run-types";
import type { TraceContext } from "./trace-context";
import { TurnStop, turnStopOf } from "./turn-stop";

export interface TurnHandle {
  /** Native events; cancelling it aborts the run and the upstream model request. */
  events: ReadableStream<NativeEvent>;
  /** Settles when the turn has ended, however it ended. */
  record: Promise<RunRecord>;
  /** Stops the turn and its model request; the stream still ends with `done` (stop reason `cancelled`). */
  cancel(reason: string): void;
}

/**
 * The turn engine around a harness. Whatever the harness does, the stream it returns holds the
 * contract's invariants: a failed or empty turn carries an error event, `usage` (when known)
 * comes right before exactly one `done`, and the limits (total, first token, idle) end a stuck
 * turn with a readable error. Client disconnect (cancel) aborts the model request.
 */
export function startTurn(
  harness: Harness,
  input: TurnInput,
  trace: TraceContext,
  options: { harnessKind: string; signal?: AbortSignal },
): TurnHandle {
  const controller = new AbortController();
  const startedAt = Date.now();
  let settle: (record: RunRecord) => void;
  const record = new Promise<RunRecord>((resolve) => (settle = resolve));
  const { limits } = input;

  // The first reason wins: AbortController ignores later aborts.
  const stopFor = (message: string) => () => controller.abort(new TurnStop("limit", message));
  const cancel = (reason: string) => controller.abort(new TurnStop("cancelled", reason));
  const total = setTimeout(
    stopFor(`The run stopped after ${limits.totalMs} ms, its time limit (AGENT_RUN_TIMEOUT_MS).`),
    limits.totalMs,
  );
  let idle: ReturnType<typeof setTimeout> | undefined = setTimeout(
    stopFor(`The model sent nothing for ${limits.firstTokenMs} ms after the request (AGENT_FIRST_TOKEN_TIMEOUT_MS).`),
    limits.firstTokenMs,
  );
  let ended = false;
  const touch = () => {
    if (ended) return;
    clearTimeout(idle);
    idle = setTimeout(
      stopFor(`The model went quiet for ${limits.idleMs} ms mid-turn (AGENT_IDLE_TIMEOUT_MS).`),
      limits.idleMs,
    );
  };
  const onClientAbort = () => cancel("client disconnected");
  options.signal?.addEventListener("abort", onClientAbort, { once: true });
  input.activity?.addEventListener("activity", touch);

  let closed = false;
  const events = new ReadableStream<NativeEvent>({
    start(stream) {
      let content = false;
      let errored = false;
      const openBlocks = new Map<string, "message_end" | "thought_end">();
      const emit = (event: NativeEvent) => {
        touch();
        if (isContentEvent(event)) content = true;
        if (event.type === "error") errored = true;
        if (event.type === "message_start") openBlocks.set(event.id, "message_end");
        if (event.type === "thought_start") openBlocks.set(event.id, "thought_end");
        if (event.type === "message_end" || event.type === "thought_end") openBlocks.delete(event.id);
        if (!closed) stream.enqueue(event);
      };
      const finish = (outcome: HarnessOutcome, harnessError?: string) => {
        ended = true;
        // An abort the engine caused decides how the turn ends, not the failure it provoked.
        const stop = turnStopOf(controller.signal);
        const limitMessage = stop?.kind === "limit" ? stop.message : undefined;
        const error = stop ? undefined : harnessError;
        clearTimeout(total);
        clearTimeout(idle);
        options.signal?.removeEventListener("abort", onClientAbort);
        input.activity?.removeEventListener("activity", touch);
        let stopReason = stop?.kind === "cancelled" ? "cancelled" : outcome.stopReason;
        // A reply cut off mid-block still closes every block it opened.
        for (const [id, type] of [...openBlocks]) emit({ type, id });
        if (limitMessage) {
          emit({ type: "error", message: limitMessage });
          stopReason = "error";
        } else if (error) {
          emit({ type: "error", message: error });
          stopReason = "error";
        } else if (!content && !errored && stopReason !== "cancelled") {
          emit({ type: "error", message: NO_OUTPUT_MESSAGE });
        }
        const { provider, model } = answeringModel(input, outcome.steps);
        // The message is built from status codes and labels only (runErrorMessage): safe to log.
        if (limitMessage ?? error) {
          logger.info(
            {
              traceId: trace.traceId,
              sessionId: input.sessionId,
              provider,
              model,
              reason: limitMessage ?? error,
            },
            "turn failed",
          );
        }
        const usage = turnUsage(input, outcome);
        if (usage) emit({ type: "usage", ...usage });
        if (usage && input.controls)
          void input.controls
            .turnEnded(usage.total)
            .catch((err: unknown) =>
              logger.error({ err, projectId: input.projectId }, "counting a turn's tokens failed"),
            );
        emit({ type: "done", stopReason, traceId: trace.traceId });
        if (!closed) stream.close();
        closed = true;
        void input.release?.().catch(() => undefined);
        settle({
          projectId: input.projectId,
          ...(input.apiKeyId ? { apiKeyId: input.apiKeyId } : {}),
          agent: input.agent,
          messages: outcome.messages ?? input.messages,
          traceId: trace.traceId,
          spanId: trace.spanId,
          parentSpanId: trace.parentSpanId,
          sessionId: input.sessionId,
          provider,
          model,
          harness: options.harnessKind,
          startedAt,
          endedAt: Date.now(),
          stopReason,
          usage,
          steps: outcome.steps,
          error: limitMessage ?? error,
          skills: input.template.skills.map((skill) => skill.name),
          mcpServers: input.template.mcps.map((server) => server.name),
          ...(input.door ? { door: input.door } : {}),
        });
      };
      harness.run(input, emit, controller.signal).then(
        (outcome) => finish(outcome, outcome.error),
        (error: unknown) => finish({ stopReason: "error", steps: [] }, runErrorMessage(error, input.connection)),
      );
    },
    cancel() {
      closed = true;
      cancel("client disconnected");
    },
  });
  return { events, record, cancel };
}

/**
 * The turn's usage: the sum of its model calls (each costed with the project's prices, else the
 * catalog's), plus the paused run's when this run continues one. The cost is known only when
 * every call has a price: a partial sum would read as the whole.
 */
function turnUsage(input: TurnInput, outcome: HarnessOutcome): RunUsage | undefined {
  const calls = outcome.steps.filter((step) => step.usage);
  // A harness that reports only the turn's totals is costed as one call.
  const parts: TokenUsage[] = calls.length
    ? calls.map((step) => step.usage!)
    : outcome.usage
      ? [{ prompt: outcome.usage.input, completion: outcome.usage.output }]
      : [];
  if (parts.length === 0) return input.priorUsage;
  const costs = parts.map((usage, i) => costOf(usage, answeredBy(input, calls[i]), input.prices));
  calls.forEach((step, i) => (step.cost = costs[i]));
  const sum = addUsage(...parts);
  const prior = input.priorUsage;
  const own = {
    input: (sum.prompt ?? 0) + (prior?.input ?? 0),
    output: (sum.completion ?? 0) + (prior?.output ?? 0),
    total: totalTokens(sum) + (prior?.total ?? 0),
  };
  const priced = costs.every((cost) => cost.priced) && (!prior || prior.cost !== undefined);
  if (!priced) return own;
  const cost = costs.reduce((total, c) => total + (c.priced ? c.amounts.total : 0), prior?.cost ?? 0);
  return { ...own, cost };
}

/**
 * The model the turn's record (its root span) names: through an alias, the entry of the last
 * model call that names one (the entry that answered it, or the one whose failure ended the
 * turn); else the turn's own.
 */
function answeringModel(input: TurnInput, steps: StepTiming[]): { provider: string; model: string } {
  const step = input.alias ? steps.findLast((one) => one.model !== undefined) : undefined;
  return step?.model
    ? { provider: step.provider ?? input.connection.provider, model: step.model }
    : { provider: input.connection.provider, model: input.connection.model };
}

/** The connection that answered a call: an alias's entry when the turn's model is an alias, else the turn's. */
function answeredBy(input: TurnInput, step: StepTiming | undefined): ResolvedConnection {
  if (!step?.provider) return input.connection;
  return (
    input.alias?.connections.find((c) => c.provider === step.provider && c.model === step.model) ?? {
      ...input.connection,
      provider: step.provider,
      model: step.model ?? input.connection.model,
    }
  );
}
