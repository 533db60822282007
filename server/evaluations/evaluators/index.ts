export type { EvaluatorContext, EvaluatorOutcome, EvaluatorRequest, EvaluatorUsage } from "./evaluator-types";
export { isRunnableEvaluatorUri, runEvaluator, runsInProcess } from "./run-evaluator";
export { parseEvaluatorUri } from "./evaluator-uri";
