import { streamText, type ModelMessage } from "ai";
import type { AgentTemplate } from "@/server/agent-template";
import type { AppContext } from "@/server/core/app-context";
import { checkTurn } from "@/server/controls";
import { isAppError } from "@/server/core/errors";
import { languageModel, recordRunTrace, resolveConnection, traceContext } from "@/server/agent-runs";
import { costOf, projectPrices, totalTokens, usageFromAiSdk, type TokenUsage } from "@/server/pricing";
import { isDatabaseUnavailable } from "@/server/db";
import { vaultOf } from "@/server/vault";
import { oncePerRun } from "./once-per-run";
import { invocationOutcome, type CellOutcome } from "./invocation-outcome";
import { PromptInputError, renderPrompt, type PromptTemplate } from "./prompt-template";

export interface PromptTarget {
  projectId: string;
  prompt: PromptTemplate;
  /** Names the trace's root span and its references. */
  name: string;
  references: Record<string, { id: string; slug?: string | null; version?: string | null }>;
}

/**
 * One call of a prompt application: placeholders filled from the testcase, `llm_config` applied,
 * the credential resolved like an agent's (a named connection, the project's connection for the
 * provider, the operator's key). The call is recorded as a trace of the same shape as an agent
 * run's, so latency, tokens and cost read the same way. With `runKey` (run and step) the
 * connection is resolved once for the run's cells (once-per-run.ts).
 */
export async function runPrompt(
  app: AppContext,
  target: PromptTarget,
  columns: Record<string, unknown>,
  signal: AbortSignal,
  runKey?: string,
): Promise<CellOutcome> {
  const started = performance.now();
  const startedAt = Date.now();
  let messages;
  try {
    messages = renderPrompt(target.prompt, columns);
  } catch (error) {
    if (error instanceof PromptInputError)
      return { status: "failure", error: { code: "missing_input", message: error.message }, latencyMs: 0 };
    throw error;
  }
  const trace = traceContext(null);
  const config = target.prompt.llm_config;
  const slash = config.model.indexOf("/");
  const llm = {
    model: slash > 0 ? config.model.slice(slash + 1) : config.model,
    provider: slash > 0 ? config.model.slice(0, slash) : null,
    connection: config.connection ? { mode: "managed", slug: config.connection } : null,
    extras: {},
  } as unknown as AgentTemplate["llm"];
  let connection;
  try {
    const resolve = () =>
      resolveConnection(llm, { config: app.config, vault: vaultOf(app), db: app.db, projectId: target.projectId });
    connection = await (runKey ? oncePerRun(runKey, resolve) : resolve());
  } catch (error) {
    // A vault the database cannot read now is no missing connection.
    if (isDatabaseUnavailable(error)) throw error;
    return {
      status: "failure",
      error: { code: "missing_connection", message: (error as Error).message },
      latencyMs: performance.now() - started,
    };
  }
  let controls;
  try {
    controls = await checkTurn(app, { projectId: target.projectId }, [connection]);
  } catch (error) {
    if (!isAppError(error)) throw error;
    return {
      status: "failure",
      error: { code: error.code, message: error.message },
      latencyMs: performance.now() - started,
    };
  }
  let text = "";
  let usage: TokenUsage = { prompt: 0, completion: 0 };
  let failure: string | undefined;
  let finishReason: string | undefined;
  let streamError: unknown;
  try {
    // Streamed, like every model call of the service (some OpenAI-compatible servers only stream).
    const result = streamText({
      model: languageModel(connection).model,
      // System messages go in `system`, where the AI SDK wants them.
      system:
        messages
          .filter((m) => m.role === "system")
          .map((m) => m.content)
          .join("\n\n") || undefined,
      messages: messages.filter((m) => m.role !== "system") as ModelMessage[],
      temperature: config.temperature,
      maxOutputTokens: config.max_tokens,
      topP: config.top_p,
      frequencyPenalty: config.frequency_penalty,
      presencePenalty: config.presence_penalty,
      abortSignal: signal,
      // The engine retries with its own backoff and budget.
      maxRetries: 0,
      onError: ({ error }) => {
        streamError = error;
      },
    });
    text = await result.text;
    finishReason = await result.finishReason;
    usage = usageFromAiSdk(await result.usage, await result.providerMetadata);
    if (streamError) throw streamError;
  } catch (caught) {
    const error = streamError ?? caught;
    failure = error instanceof Error ? error.message : String(error);
    const status = (error as { statusCode?: number }).statusCode;
    if (status) failure = `${failure} (HTTP ${status})`;
  }
  const endedAt = Date.now();
  const latencyMs = performance.now() - started;
  const cost = costOf(
    usage,
    { provider: connection.provider, model: connection.model, deployment: connection.deployment },
    await projectPrices(app.db, target.projectId),
  );
  const costUsd = cost.priced ? cost.amounts.total : undefined;
  await controls.stepEnded({ ...connection, usage });
  await controls.turnEnded(totalTokens(usage));
  await recordRunTrace(
    app,
    {
      projectId: target.projectId,
      agent: { name: target.name, references: target.references },
      messages: messages.map((m) => ({ role: m.role, content: [{ type: "text" as const, text: m.content }] })),
      traceId: trace.traceId,
      spanId: trace.spanId,
      sessionId: trace.traceId,
      provider: connection.provider,
      model: connection.model,
      harness: "prompt",
      startedAt,
      endedAt,
      stopReason: failure ? "error" : "end_turn",
      usage: {
        input: usage.prompt ?? 0,
        output: usage.completion ?? 0,
        total: totalTokens(usage),
        ...(costUsd !== undefined ? { cost: costUsd } : {}),
      },
      steps: [{ index: 0, startedAt, endedAt, finishReason, usage, cost, text, toolCalls: [] }],
      ...(failure ? { error: failure } : {}),
    },
    connection.apiKey ? [connection.apiKey] : [],
  );
  return invocationOutcome(
    { signal, traceId: trace.traceId, latencyMs, failure },
    { outputs: text, tokens: totalTokens(usage), costUsd },
  );
}
