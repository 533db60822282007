export { queryAnalytics, type AnalyticsResult, type AnalyticsGroupMetrics } from "./query-analytics";
export type { AnalyticsMetrics } from "./metrics";
export { analyticsQuerySchema, MAX_BUCKETS, type AnalyticsQuery, type BucketUnit } from "./query-request";
export { analyticsRoutes } from "./routes";
export {
  COMPACTION_GRACE_MS,
  compactRollupsPass,
  drainRollupCompaction,
  ROLLUP_KEPT,
  rollupCompactionWorker,
} from "./rollup-compaction";
export {
  grainSegments,
  queryWindowTotals,
  quarterCover,
  type WindowMap,
  type WindowTotals,
  type WindowTotalsRequest,
} from "./window-totals";
export {
  conversationsQuerySchema,
  listSessions,
  listUsers,
  sessionTurns,
  type ConversationsQuery,
} from "./conversations";
export {
  chartQuery,
  createDashboard,
  DASHBOARD_METRICS,
  DASHBOARD_RANGES,
  dashboardInputSchema,
  dashboardToWire,
  deleteDashboard,
  getDashboard,
  listDashboards,
  replaceDashboard,
  type DashboardChart,
} from "./dashboards";
