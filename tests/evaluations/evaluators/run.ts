import type { AppContext } from "@/server/core/app-context";
import { runEvaluator, type EvaluatorOutcome, type EvaluatorRequest } from "@/server/evaluations/evaluators";

/** Runs an evaluator with no app context (evaluators that need none), or the given one. */
export function evaluate(
  uri: string,
  parameters: Record<string, unknown>,
  inputs: Record<string, unknown>,
  outputs: unknown,
  extra: {
    app?: AppContext;
    projectId?: string;
    signal?: AbortSignal;
    timeoutMs?: number;
    data?: Record<string, unknown>;
    trace?: EvaluatorRequest["trace"];
  } = {},
): Promise<EvaluatorOutcome> {
  return runEvaluator(
    {
      app: extra.app ?? ({} as AppContext),
      projectId: extra.projectId ?? "p",
      signal: extra.signal ?? new AbortController().signal,
      timeoutMs: extra.timeoutMs,
    },
    { uri, data: { uri, parameters, ...extra.data }, inputs, outputs, trace: extra.trace },
  );
}

/** The outputs of a success; fails the test with the error otherwise. */
export async function outputsOf(outcome: Promise<EvaluatorOutcome>): Promise<Record<string, unknown>> {
  const result = await outcome;
  if (result.status !== "success")
    throw new Error(`expected success, got ${result.error.code}: ${result.error.message}`);
  return result.outputs;
}

export async function errorOf(
  outcome: Promise<EvaluatorOutcome>,
): Promise<{ code: string; message: string; retryable?: boolean }> {
  const result = await outcome;
  if (result.status !== "failure") throw new Error(`expected failure, got ${JSON.stringify(result.outputs)}`);
  return result.error;
}
