export { recordSpans, type RecordSpansOptions, type RecordSpansResult, type SpanInput } from "./record-spans";
export { tracingRoutes } from "./routes";
export { drainIngestQueue, spanIngestWorker, startIngestWorker, type IngestWorkerOptions } from "./ingest/worker";
export { fetchTrace, queryTraces } from "./traces";
export { parseTraceId, storedTraceId } from "./ids";
export { traceSearchQuery, traceSearchSchema } from "./trace-search";
export { checkTraceFiltering, loadTraceSources, matchingTraceIds, type TraceSource } from "./trace-sources";
export { binValue, SPAN_DIMENSIONS, spanDimensionsSql, spanFactsSql, type SpanDimension } from "./store/span-facts";
export {
  DETAIL_DIMENSIONS,
  NARROW_DETAIL,
  ROLLUP_DETAIL,
  ROLLUP_GRAINS,
  ROLLUP_SCALARS,
  type RollupGrain,
  type SpanSums,
} from "./store/rollup-columns";
export { lockRollups } from "./store/rollup-upsert";
export {
  rollupDimensionsSql,
  rollupFactsSql,
  rollupRowsSql,
  spanRowsSql,
  traceRootSql,
  type RollupRowsQuery,
  type SpanRowsQuery,
} from "./store/fact-rows";
export { eraseUserRollups } from "./erase-user-rollups";
export { deleteRollupsBefore, projectsWithRollups } from "./compact-rollups";
export type { Amounts } from "./metrics";
export { filteringToSql } from "./query/filtering";
export { SqlParams } from "./query/sql-params";
export { parseTimestamp, microsToIso } from "./timestamps";
export { deleteSpansBefore, eraseTraces, tracesOfSessions, tracesOfUser } from "./erase-traces";
export { dropPartitionsPastRetention } from "./store/partitions";
export { deleteSessionBoundsBefore, deleteTraceBoundsBefore } from "./store/span-bounds";
export { traceOfRevisionSince } from "./revision-traces";
export { failingTraceIds, loadTraceFacts, type TraceFacts } from "./trace-failures";
