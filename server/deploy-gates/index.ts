export { assertDeployAllowed } from "./check-deploy-gate";
export { deployEvidence, type DeployEvidence, type RevisionEvidence } from "./deploy-evidence";
export {
  setEvidenceReader,
  type EvaluationSummary,
  type EvaluatorScore,
  type EvidenceQuery,
  type EvidenceReader,
} from "./evaluation-evidence";
export {
  clearDeployGate,
  getDeployGate,
  setDeployGate,
  GATED_ENVIRONMENT,
  type DeployGate,
  type DeployGateInput,
} from "./gate-store";
