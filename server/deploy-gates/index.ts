export { assertDeployAllowed } from "./check-deploy-gate";
export { deployEvidence, type DeployEvidence, type RevisionEvidence } from "./deploy-evidence";
export type { EvaluationSummary, EvaluatorScore } from "./evaluation-evidence";
export {
  clearDeployGate,
  getDeployGate,
  setDeployGate,
  GATED_ENVIRONMENT,
  type DeployGate,
  type DeployGateInput,
} from "./gate-store";
