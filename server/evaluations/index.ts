export { evaluationRoutes } from "./routes";
export {
  evaluationWorker,
  startEvaluationWorker,
  drainEvaluationCells,
  type EvaluationWorkerOptions,
} from "./execution/worker";
export { annotateScenario, reviewItems, reviewQueuesFor, type ReviewScale } from "./queues/review";
export { queueRevisionChoices } from "./queues/queue-revisions";
export { failingAnnotations, type FailingAnnotation } from "./queues/failing-annotations";
export { createSimpleQueue } from "./compat/simple-queues";
export {
  createSimpleEvaluation,
  deleteSimpleEvaluation,
  getSimpleEvaluation,
  querySimpleEvaluations,
  startSimpleEvaluation,
  stopSimpleEvaluation,
  type SimpleEvaluation,
} from "./compat/simple-evaluations";
export { simpleEvaluationSchema, type SimpleEvaluationInput } from "./compat/input";
export { evaluationTable, type EvaluationRow, type EvaluationTable } from "./compat/run-rows";
export { processCells } from "./compat/run-slice";
export { compareRuns } from "./compare/compare-runs";
export { tryEvaluator, type EvaluatorTrial } from "./execution/try-evaluator";
export { evaluateRevisions, latestEvaluationsOfRevisions } from "./compat/evaluate-revisions";
export { refreshLiveRuns } from "./execution/live-refresh";
export { deleteFinishedResultsBefore, deleteFinishedScenariosBefore } from "./store/erase-results";
export { liveEvaluatorResultsSql } from "./store/live-evaluator-results";
export {
  isLiveEvaluation,
  liveScoreOfRevision,
  liveScoresOfRevision,
  type LiveScore,
  type NamedLiveScore,
} from "./store/live-scores";
export { latestEvaluation } from "./store/latest-evaluation";
