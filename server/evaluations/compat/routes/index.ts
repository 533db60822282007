export { simpleEvaluationRoutes } from "./evaluation-routes";
export { simpleQueueRoutes } from "./queue-routes";
export { sliceRoutes } from "./slice-routes";
