export { evaluationRoutes } from "./routes";
export {
  evaluationWorker,
  startEvaluationWorker,
  drainEvaluationCells,
  type EvaluationWorkerOptions,
} from "./execution/evaluation-worker";
export { createSimpleEvaluation } from "./simple/simple-evaluations";
export { annotateScenario, reviewItems, reviewQueuesFor, type ReviewScale } from "./queues/review";
