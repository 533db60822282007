export { a2aRoutes } from "./routes";
export { a2aEndpoint } from "./a2a-agent";
export {
  connectTargets,
  exposedListing,
  setAgentExposed,
  testA2aDoor,
  type ConnectTarget,
  type ExposedListing,
} from "./connect-panel";
export { a2aPushWorker, startPushWorker } from "./push-worker";
