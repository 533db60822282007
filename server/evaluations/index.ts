export { evaluationRoutes } from "./routes";
export {
  evaluationWorker,
  startEvaluationWorker,
  drainEvaluationCells,
  type EvaluationWorkerOptions,
} from "./execution/evaluation-worker";
export { annotateScenario, reviewItems, reviewQueuesFor, type ReviewScale } from "./queues/review";
export { createSimpleQueue } from "./queues/simple-queues";
export {
  createSimpleEvaluation,
  deleteSimpleEvaluation,
  getSimpleEvaluation,
  querySimpleEvaluations,
  startSimpleEvaluation,
  stopSimpleEvaluation,
  type SimpleEvaluation,
} from "./simple/simple-evaluations";
export { simpleEvaluationSchema, type SimpleEvaluationInput } from "./simple/simple-input";
export { evaluationTable, type EvaluationRow, type EvaluationTable } from "./simple/run-rows";
export { processCells } from "./simple/run-slice";
export { compareRuns } from "./compare/compare-runs";
export { tryEvaluator, type EvaluatorTrial } from "./execution/try-evaluator";
export { evaluateRevisions, latestEvaluationsOfRevisions } from "./simple/evaluate-revisions";
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
