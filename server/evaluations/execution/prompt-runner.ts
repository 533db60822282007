import type { ModelMessage } from "ai";
import type { AppContext } from "@/server/core/app-context";
import { isAppError } from "@/server/core/errors";
import { resolveModelName, tracedModelCall } from "@/server/agent-runs";
import { isDatabaseUnavailable } from "@/server/db";
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
 * provider, the operator's key), then `tracedModelCall`: controls, pricing and a trace of the same
 * shape as an agent run's, so latency, tokens and cost read the same way. With `runKey` (run and
 * step) the connection is resolved once for the run's cells (once-per-run.ts).
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
  const config = target.prompt.llm_config;
  let connection;
  try {
    const resolve = () => resolveModelName(app, target.projectId, config.model, config.connection);
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
  let call;
  try {
    call = await tracedModelCall(app, {
      projectId: target.projectId,
      connection,
      agent: { name: target.name, references: target.references },
      harness: "prompt",
      messages,
      request: {
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
      },
      describeFailure: (error, message) => {
        const status = (error as { statusCode?: number }).statusCode;
        return status ? `${message} (HTTP ${status})` : message;
      },
      since: { startedAt, started },
    });
  } catch (error) {
    // A refusal by the project's controls (allowlist, budget, rate limit) is the cell's failure.
    if (!isAppError(error)) throw error;
    return {
      status: "failure",
      error: { code: error.code, message: error.message },
      latencyMs: performance.now() - started,
    };
  }
  return invocationOutcome(
    { signal, traceId: call.traceId, latencyMs: call.latencyMs, failure: call.failure },
    { outputs: call.text, tokens: call.tokens, costUsd: call.costUsd },
  );
}
