import type { MetricName } from "@/shared/monitor-metrics";

/** The Analytics page's charts and the monitor metric each one draws. */
export const CHART_TO_METRIC: Record<string, MetricName> = {
  runs: "count",
  cost: "cost",
  error_rate: "error_rate",
  latency: "latency_p50",
  tokens: "tokens",
  score: "score_mean",
};

/** The Monitors page with a new monitor's form filled in from a chart ("alert me when this line crosses…"). */
export function monitorDraftPath(chart: string, agentId?: string): string {
  const params = new URLSearchParams({ new: "1", metric: CHART_TO_METRIC[chart] ?? "count" });
  if (agentId) params.set("agent", agentId);
  return `/monitors?${params}`;
}

/** Error and pass rates are typed and shown as percents; the monitor stores the fraction. */
export const isPercent = (metric: MetricName) => metric === "error_rate" || metric === "score_pass_rate";
