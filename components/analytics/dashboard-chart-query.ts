import type { AnalyticsQuery } from "@/server/analytics";
import { RANGES, type RangeKey } from "./analytics-range";

/** A saved chart as the dashboards API stores it. */
export interface SavedChart {
  title: string;
  metric: "runs" | "cost" | "error_rate" | "latency" | "tokens" | "score";
  range: RangeKey;
  focus?: "run" | "span";
  group_by?: (typeof CHART_GROUPS)[number] | "api_key" | "evaluator" | { attribute: string };
  filtering?: unknown;
}

/** The groups a chart can be drawn by on the dashboard form. */
export const CHART_GROUPS = ["agent", "model", "provider", "environment", "revision", "user"] as const;

/**
 * The analytics query of a saved chart over its range up to now, aligned as the Analytics page
 * aligns it (the next full minute, hour or local midnight), in the browser's zone.
 */
export function savedChartQuery(chart: SavedChart, now: Date): AnalyticsQuery {
  const { hours, bucket } = RANGES[chart.range];
  const end = new Date(now);
  if (bucket === "minute") end.setSeconds(60, 0);
  else if (bucket === "hour") end.setMinutes(60, 0, 0);
  else end.setHours(24, 0, 0, 0);
  return {
    ...(chart.focus ? { focus: chart.focus } : {}),
    windowing: {
      oldest: new Date(end.getTime() - hours * 3_600_000).toISOString(),
      newest: end.toISOString(),
      bucket,
      timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    },
    ...(chart.group_by ? { group_by: chart.group_by } : {}),
    ...(chart.filtering !== undefined ? { filtering: chart.filtering } : {}),
  };
}

/** The agent a chart's filter names (`agent is <id>`), for its drill-down to traces. */
export function filteredAgent(filtering: unknown): string | undefined {
  const conditions = (filtering as { conditions?: unknown[] } | undefined)?.conditions;
  const c =
    Array.isArray(conditions) && conditions.length === 1 ? (conditions[0] as Record<string, unknown>) : undefined;
  return c && c.field === "agent" && typeof c.value === "string" && (c.operator ?? "is") === "is" ? c.value : undefined;
}
