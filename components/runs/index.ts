export { runsPath, type RunFilters } from "./run-paths";
export { runOriginOf } from "./run-origin";
export { runStatusOf, type RunStatus } from "./run-status";
export { RunsView } from "./runs-view";
