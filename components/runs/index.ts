export { runsPath } from "./run-paths";
export { runStatusOf, type RunStatus } from "./run-status";
export { RunsView } from "./runs-view";
