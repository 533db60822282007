export type { EvaluatorContext, EvaluatorOutcome, EvaluatorRequest, EvaluatorUsage } from "./evaluator-types";
export { isRunnableEvaluatorUri, runEvaluator } from "./run-evaluator";
