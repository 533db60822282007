export { evaluationRoutes } from "./routes";
export {
  evaluationWorker,
  startEvaluationWorker,
  drainEvaluationCells,
  type EvaluationWorkerOptions,
} from "./execution/evaluation-worker";
export { refreshLiveRuns } from "./execution/live-refresh";
