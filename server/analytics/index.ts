export { queryAnalytics, type AnalyticsResult, type AnalyticsGroupMetrics } from "./query-analytics";
export type { AnalyticsMetrics } from "./metrics";
export { analyticsQuerySchema, MAX_BUCKETS, type AnalyticsQuery, type BucketUnit } from "./query-request";
export { analyticsRoutes } from "./routes";
export {
  grainSegments,
  queryWindowTotals,
  quarterCover,
  type WindowMap,
  type WindowTotals,
  type WindowTotalsRequest,
} from "./window-totals";
