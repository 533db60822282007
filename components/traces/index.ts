export { filtersOf, tracePath, tracesPath, type TraceFilters } from "./trace-paths";
export { TracesList } from "./traces-list";
export { TraceView } from "./trace-view";
