export { failureModeToEvaluator, failureModeToTestset } from "./actions";
export { triageRoutes } from "./routes";
export { cancelTriage, checkTriageStart, getFailureMode, getTriage, listTriages, startTriage } from "./triages";
export { claimTriages, TRIAGE_LEASE_MS } from "./store";
export { triagePass, triageWorker } from "./worker";
export { batchGroupingSchema } from "./model-grouping";
export {
  evidenceSchema,
  failureModeEvaluatorBody,
  failureModeTestsetBody,
  failureModeWire,
  startTriageBody,
  triageListQuery,
  triageWire,
  type Evidence,
  type FailureModeWire,
  type StartTriageBody,
  type TriageWire,
} from "./wire";
