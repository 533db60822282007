import type { AnalyticsMetrics } from "@/server/analytics";

/** The figures the charts draw, from one bucket's (or group's) metrics. */
// Rates and latencies are gaps (null) where nothing ran: a 0 would read as a measurement.
export const CHART_METRICS = {
  cost: { label: "Cost (USD)", value: (m: AnalyticsMetrics) => usd(m.costs) },
  runs: { label: "Runs", value: (m: AnalyticsMetrics) => m.count },
  error_rate: {
    label: "Error rate (%)",
    value: (m: AnalyticsMetrics) => (m.count ? Math.round(m.error_rate * 1000) / 10 : null),
  },
  latency: { label: "Latency p50 (ms)", value: (m: AnalyticsMetrics) => (m.count ? m.latency_ms.p50 : null) },
  tokens: { label: "Tokens", value: (m: AnalyticsMetrics) => tokens(m.tokens) },
  // A gap where nothing was scored: a 0 would read as the worst score.
  score: { label: "Mean evaluator score", value: (m: AnalyticsMetrics) => m.scores.mean ?? null },
} as const satisfies Record<string, { label: string; value: (m: AnalyticsMetrics) => number | null }>;

/** A USD amount short enough for an axis: "$0.0012", "$0.25", "$12". */
export function axisUsd(value: number): string {
  if (value === 0) return "$0";
  if (Math.abs(value) >= 10) return `$${Math.round(value)}`;
  if (Math.abs(value) >= 0.01) return `$${Number(value.toFixed(2))}`;
  return `$${Number(value.toPrecision(2))}`;
}
export type ChartMetric = keyof typeof CHART_METRICS;

/** A span's `total` when it reports one, else the sum of its kinds. */
export function usd(costs: Record<string, number>): number {
  const total = costs.total ?? Object.values(costs).reduce((s, v) => s + v, 0);
  return Math.round(total * 1e6) / 1e6;
}

export function tokens(t: Record<string, number>): number {
  if (t.total !== undefined) return t.total;
  return (t.prompt ?? 0) + (t.completion ?? 0);
}
