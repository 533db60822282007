export { promoteCanary, rampCanary, rollbackCanary, startCanary, type StartCanaryRequest } from "./actions";
export { compareCanary, type CanaryComparison } from "./comparison";
export { canaryRoutes } from "./routes";
export { endCanaryWithSplit, getCanary, listCanaries, type CanaryRow } from "./store";
export { canaryToWire, type CanaryWire } from "./wire";
export { canaryPass, canaryWorker } from "./worker";
