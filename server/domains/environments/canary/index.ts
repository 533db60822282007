export { promoteCanary, rampCanary, rollbackCanary, startCanary, type StartCanaryRequest } from "./canary-actions";
export { compareCanary, type CanaryComparison } from "./canary-comparison";
export { canaryRoutes } from "./canary-routes";
export { getCanary, listCanaries, type CanaryRow } from "./canary-store";
export { canaryToWire, type CanaryWire } from "./canary-wire";
export { canaryPass, canaryWorker } from "./canary-worker";
