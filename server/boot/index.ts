export { afterResponseSettled, workAfterResponse, type AfterResponse } from "./after-response";
export { createApiDoors, createApiHandler, type NodeRequestHandler, type WebDoor } from "./api-doors";
export { bootApp, getApp, type App } from "./app";
export { appContextOf } from "./app-context";
export { createFront, isRouterPath } from "./front";
export { shutDown } from "./graceful-shutdown";
export { PROJECT_SETUPS } from "./project-setups";
export { allRoutes, apiRoutes } from "./route-table";
export { BACKGROUND_WORKERS, backgroundWorkersFor, drainBackgroundWorkers, startBackgroundWorkers } from "./workers";
