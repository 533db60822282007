import type { AppContext } from "@/server/core/app-context";
import { runEvaluator, type EvaluatorOutcome } from "@/server/evaluations/evaluators";

export interface EvaluatorTrial {
  /** The evaluator revision's `data` as it would be committed (`uri`, `parameters`, ...). */
  data: Record<string, unknown>;
  inputs: Record<string, unknown>;
  outputs: unknown;
}

/** A judge gets its usual two minutes; a person waiting on a form should not wait longer. */
const TRIAL_TIMEOUT_MS = 120_000;

/**
 * Runs an evaluator once on a sample, as a cell would, before anything is committed: no run,
 * no scenario, no result is stored. The outcome (a verdict, or a failure naming the parameter
 * that is wrong) is what the form shows.
 */
export async function tryEvaluator(
  app: AppContext,
  projectId: string,
  trial: EvaluatorTrial,
): Promise<EvaluatorOutcome> {
  const uri = typeof trial.data.uri === "string" ? trial.data.uri : "";
  return runEvaluator(
    { app, projectId, signal: AbortSignal.timeout(TRIAL_TIMEOUT_MS) },
    { uri, data: trial.data, inputs: trial.inputs, outputs: trial.outputs },
  );
}
