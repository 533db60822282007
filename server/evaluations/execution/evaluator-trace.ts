import type { EvaluatorContext } from "@/server/evaluations/evaluators";
import type { Step } from "../model/run-data";

/**
 * What a model call of an evaluator step is traced as (a judge's grading): named after the
 * evaluator (its slug, else the step's key) and referencing the evaluator revision the step names
 * and the evaluation run, so the trace of a cell's grading is found from the run and the evaluator.
 */
export function evaluatorTrace(runId: string, step: Step): NonNullable<EvaluatorContext["traceAs"]> {
  const references: NonNullable<EvaluatorContext["traceAs"]>["references"] = {};
  for (const [kind, ref] of Object.entries(step.references)) {
    if (!kind.startsWith("evaluator") || typeof ref.id !== "string") continue;
    references[kind] = { id: ref.id, slug: ref.slug ?? null, version: ref.version ?? null };
  }
  references.evaluation_run = { id: runId };
  return { name: step.references.evaluator?.slug ?? step.key, references };
}
