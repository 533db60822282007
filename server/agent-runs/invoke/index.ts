export { invokeAgent } from "./invoke-agent";
export { invokeRequestSchema, SESSION_ID, type InvokeRequest } from "./invoke-request";
export { prepareTurn, resolveAgent, type ResolvedAgent } from "./prepare-turn";
export { TURN_ERROR_CODES } from "./turn-error-codes";
export { beginTurn } from "./begin-turn";
export { driveDoorTurn } from "./drive-door-turn";
export type { PrepareOptions } from "./prepare-turn";
export { startBackgroundRun, type StartedRun } from "./start-background-run";
