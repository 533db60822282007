export { recordSpans, type RecordSpansOptions, type RecordSpansResult, type SpanInput } from "./record-spans";
export { tracingRoutes } from "./routes";
export { drainIngestQueue, spanIngestWorker, startIngestWorker, type IngestWorkerOptions } from "./ingest/worker";
export { fetchTrace, queryTraces } from "./traces";
export { traceSearchQuery, traceSearchSchema } from "./trace-search";
export {
  checkTraceFiltering,
  loadTraceSources,
  matchingTraceIds,
  storedTraceId,
  type TraceSource,
} from "./trace-sources";
