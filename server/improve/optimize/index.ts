export {
  cancelOptimization,
  checkOptimizationStart,
  getOptimization,
  listOptimizations,
  optimizationToWire,
  shipOptimization,
  startOptimization,
} from "./service";
export { optimizationRoutes } from "./routes";
export {
  optimizationPass,
  optimizationWorker,
  startOptimizationWorker,
  type OptimizationWorkerOptions,
} from "./worker";
export {
  listOptimizationsQuery,
  optimizationResponse,
  optimizationsResponse,
  optimizationWire,
  shipOptimizationBody,
  shippedResponse,
  startOptimizationBody,
  OPTIMIZATION_STATUSES,
  STRATEGIES,
  type OptimizationWire,
  type ShipOptimizationBody,
  type StartOptimizationBody,
  type Strategy,
} from "./wire";
