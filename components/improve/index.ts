export { FindWhatFailsButton } from "./find-what-fails";
export { ImproveButton } from "./improve-button";
export { ImproveIcon } from "./improve-icon";
export { ImproveList } from "./improve-list";
export { improvePath, optimizationPath, triagePath } from "./improve-paths";
export { OptimizationView } from "./optimization-view";
export { TriageView } from "./triage-view";
