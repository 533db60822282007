import { streamText, type InferGenerateOutput, type OutputInterface, type ToolSet } from "ai";
import type { AppContext } from "@/server/core/app-context";
import { checkTurn } from "@/server/controls";
import { costOf, projectPrices, totalTokens, usageFromAiSdk, type TokenUsage } from "@/server/pricing";
import { languageModel } from "./providers";
import type { ResolvedConnection } from "./providers/connection";
import { recordRunTrace } from "./record-run-trace";
import type { RunAgent } from "./run-agent";
import { traceContext } from "./trace-context";

/** The AI SDK call settings of one call, minus what this function owns (the model, the error hook). */
export type ModelRequest<OUTPUT extends OutputInterface> = Omit<
  Parameters<typeof streamText<ToolSet, OUTPUT>>[0],
  "model" | "onError"
>;

export interface ModelCall<OUTPUT extends OutputInterface> {
  projectId: string;
  /** Resolved by the caller (each resolves `provider/model` its own way). */
  connection: ResolvedConnection;
  /** Names the trace's root span (`invoke_agent <name>`) and its references. */
  agent: RunAgent;
  /** The run's `ag.meta.run.harness`: what kind of service call this is. */
  harness: string;
  /** The call's input as the trace shows it. */
  messages: Array<{ role: string; content: string }>;
  /** What `streamText` is asked. With `output`, the parsed object is the answer (and the step's text in the trace). */
  request: ModelRequest<OUTPUT>;
  /** The trace's session; by default the trace's own id. */
  sessionId?: string;
  /** A failure in the caller's words (recorded on the trace, returned); `message` is the error's own. */
  describeFailure?: (error: unknown, message: string) => string;
  /** When the caller's work began (epoch and `performance.now()` ms): the trace's start and the latency's origin. */
  since?: { startedAt: number; started: number };
}

export interface ModelCallResult<OUTPUT extends OutputInterface> {
  traceId: string;
  text: string;
  /** The parsed structured answer, when the request asked for `output` and the call succeeded. */
  output?: InferGenerateOutput<OUTPUT>;
  tokens: number;
  /** The prompt and completion tokens `tokens` sums. */
  usage: TokenUsage;
  /** Undefined when the project's prices and the catalog have none for the model. */
  costUsd?: number;
  /** Set when the call failed; the trace records it as the run's error. */
  failure?: string;
  /** From `since` (else the call's start) to the reply's end, before pricing and recording. */
  latencyMs: number;
}

/**
 * One model call the service makes on its own behalf (a prompt application under evaluation, a
 * judge evaluator's grading, the optimizer's rewrite, the triage's grouping): the project's controls checked (allowlist, budgets,
 * rate limits; a refusal throws before anything is sent), the call streamed (some
 * OpenAI-compatible servers only stream), priced with the project's prices, counted against the
 * controls and recorded as a run trace of an agent run's shape (`invoke_agent` > `turn 1` >
 * `chat`), with the connection's key redacted. A failed call does not throw: it comes back as
 * `failure`, already recorded.
 */
export async function tracedModelCall<OUTPUT extends OutputInterface = OutputInterface<string, string, never>>(
  app: AppContext,
  call: ModelCall<OUTPUT>,
): Promise<ModelCallResult<OUTPUT>> {
  const { projectId, connection } = call;
  const controls = await checkTurn(app, { projectId }, [connection]);
  const trace = traceContext(null);
  const { startedAt, started } = call.since ?? { startedAt: Date.now(), started: performance.now() };
  let text = "";
  let output: ModelCallResult<OUTPUT>["output"];
  let usage: TokenUsage = { prompt: 0, completion: 0 };
  let finishReason: string | undefined;
  let failure: string | undefined;
  let streamError: unknown;
  try {
    const result = streamText<ToolSet, OUTPUT>({
      ...call.request,
      model: languageModel(connection).model,
      // The SDK's default prints the provider's body, which can echo the key.
      onError: ({ error }) => {
        streamError = error;
      },
    } as Parameters<typeof streamText<ToolSet, OUTPUT>>[0]);
    // A reply that broke off after it began still has its text, finish reason and usage: the
    // trace shows them. An error part mid-stream does not reject these: `streamError` says so.
    text = await result.text;
    finishReason = await result.finishReason;
    usage = usageFromAiSdk(await result.usage, await result.providerMetadata);
    if (streamError) throw streamError;
    if (call.request.output) output = await result.output;
  } catch (caught) {
    const error = streamError ?? caught;
    const message = error instanceof Error ? error.message : String(error);
    failure = call.describeFailure ? call.describeFailure(error, message) : message;
  }
  const endedAt = Date.now();
  const latencyMs = performance.now() - started;
  const cost = costOf(
    usage,
    { provider: connection.provider, model: connection.model, deployment: connection.deployment },
    await projectPrices(app.db, projectId),
  );
  const costUsd = cost.priced ? cost.amounts.total : undefined;
  await controls.stepEnded({ ...connection, usage });
  await controls.turnEnded(totalTokens(usage));
  // An output that is text already (a judge's answer in a response format) is shown as it came.
  const stepText = call.request.output
    ? output === undefined
      ? ""
      : typeof output === "string"
        ? output
        : JSON.stringify(output)
    : text;
  await recordRunTrace(
    app,
    {
      projectId,
      agent: call.agent,
      messages: call.messages.map((m) => ({ role: m.role, content: [{ type: "text" as const, text: m.content }] })),
      traceId: trace.traceId,
      spanId: trace.spanId,
      sessionId: call.sessionId ?? trace.traceId,
      provider: connection.provider,
      model: connection.model,
      harness: call.harness,
      startedAt,
      endedAt,
      stopReason: failure ? "error" : "end_turn",
      usage: {
        input: usage.prompt ?? 0,
        output: usage.completion ?? 0,
        total: totalTokens(usage),
        ...(costUsd !== undefined ? { cost: costUsd } : {}),
      },
      steps: [{ index: 0, startedAt, endedAt, finishReason, usage, cost, text: stepText, toolCalls: [] }],
      ...(failure ? { error: failure } : {}),
    },
    connection.apiKey ? [connection.apiKey] : [],
  );
  return {
    traceId: trace.traceId,
    text,
    ...(output !== undefined ? { output } : {}),
    tokens: totalTokens(usage),
    usage,
    costUsd,
    failure,
    latencyMs,
  };
}
