export { CompareLoader, CompareView } from "./compare-view";
export { EvaluateButton } from "./evaluate-button";
export { EvaluationView } from "./evaluation-view";
export { EvaluationsIcon } from "./evaluations-icon";
export { EvaluationsList } from "./evaluations-list";
export { comparePath, compareRevisionsPath, evaluationPath, evaluationsPath, idsOf } from "./evaluation-paths";
export { RunEvaluationDialog, type DraftChoice } from "./run-dialog";
