export { DOMAIN_SPECS } from "./specs";
export { listEnvironmentStates, deploymentsOf, type DeployedRevision } from "./environments/overview";
export { listDeployLog, listEnvironmentOverview } from "./environments/deploy-log";
export {
  commitAgentTemplate,
  createAgent,
  forkAgentVariant,
  listAgents,
  precheckCommit,
  checkAgentTemplate,
} from "./workflows/agents";
export { deployRevision } from "./environments/deploy";
export { workflowsSpec } from "./workflows/spec";
export { appendTestcases, listTestsets, MAX_TESTCASES_PER_REVISION } from "./testsets";
export { artifactsWithRevisions, type ArtifactWithRevisions } from "./artifacts-with-revisions";
export { EVALUATOR_PRESETS, evaluatorPresetToWire } from "./evaluators/evaluator-presets";
export { EVALUATOR_TEMPLATES, evaluatorTemplateToWire } from "./evaluators/evaluator-templates";
export { environmentsSpec } from "./environments/spec";
export { revisionIdOf, type SplitMap } from "./environments/splits";
export { setSplitEndHandlers, type EndedSplit, type SplitEndHandler } from "./environments/split-ends";
