import { z } from "zod";
import { analyticsFocusSchema, analyticsGroupSchema, type AnalyticsQuery } from "../query-request";

/** The metrics a chart draws (the Analytics page's charts). */
export const DASHBOARD_METRICS = ["runs", "cost", "error_rate", "latency", "tokens", "score"] as const;

/** A chart's range and the bucket it is drawn in. */
export const DASHBOARD_RANGES = {
  "1h": { hours: 1, bucket: "minute" },
  "24h": { hours: 24, bucket: "hour" },
  "7d": { hours: 24 * 7, bucket: "day" },
  "30d": { hours: 24 * 30, bucket: "day" },
  "90d": { hours: 24 * 90, bucket: "day" },
} as const;
export type DashboardRange = keyof typeof DASHBOARD_RANGES;

export const dashboardChartSchema = z.strictObject({
  title: z.string().trim().min(1).max(200),
  metric: z.enum(DASHBOARD_METRICS),
  range: z
    .enum(Object.keys(DASHBOARD_RANGES) as [DashboardRange, ...DashboardRange[]])
    .default("7d")
    .describe("The window up to now: 1h in minutes, 24h in hours, longer in days"),
  focus: analyticsFocusSchema.optional(),
  group_by: analyticsGroupSchema.optional(),
  filtering: z.unknown().optional().describe("The filtering of POST /api/analytics/query"),
});
export type DashboardChart = z.infer<typeof dashboardChartSchema>;

export const dashboardInputSchema = z.strictObject({
  name: z.string().trim().min(1).max(200),
  charts: z.array(dashboardChartSchema).max(24),
});
export type DashboardInput = z.infer<typeof dashboardInputSchema>;

/** The analytics query a chart draws, for the range ending at `end`, in `timezone`. */
export function chartQuery(chart: DashboardChart, end: Date, timezone = "UTC"): AnalyticsQuery {
  const { hours, bucket } = DASHBOARD_RANGES[chart.range];
  return {
    ...(chart.focus ? { focus: chart.focus } : {}),
    windowing: {
      oldest: new Date(end.getTime() - hours * 3_600_000).toISOString(),
      newest: end.toISOString(),
      bucket,
      timezone,
    },
    ...(chart.group_by ? { group_by: chart.group_by } : {}),
    ...(chart.filtering !== undefined ? { filtering: chart.filtering } : {}),
  };
}
