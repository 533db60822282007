export { appendTestcases } from "./append-testcases";
export { listTestsets, type TestsetListQuery, type TestsetSummary } from "./list-testsets";
export { MAX_TESTCASES_PER_REVISION } from "./spec";
