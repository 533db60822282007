/** What a monitor can watch: figures of the analytics query, or a budget's use of its window. */
export const METRIC_NAMES = [
  "count",
  "errors",
  "error_rate",
  "latency_mean",
  "latency_p50",
  "latency_p90",
  "latency_p99",
  "ttft_p50",
  "ttft_p90",
  "ttft_p99",
  "tokens",
  "cost",
  "score_mean",
  "score_pass_rate",
  "budget_use",
] as const;
export type MetricName = (typeof METRIC_NAMES)[number];

/** The figures of an analytics answer a monitor reads (the shape of server/analytics' metrics). */
export interface MetricFigures {
  count: number;
  errors: number;
  error_rate: number;
  tokens: Record<string, number>;
  costs: Record<string, number>;
  latency_ms: { mean: number; p50: number; p90: number; p99: number };
  ttft_ms: { count: number; p50: number; p90: number; p99: number };
  scores: { count: number; score_count: number; mean?: number; verdict_count: number; pass_rate?: number };
}

/** The metrics of a live evaluation's evaluator: read from the score roll-ups, one evaluator at a time. */
export const isScoreMetric = (name: MetricName): name is "score_mean" | "score_pass_rate" =>
  name === "score_mean" || name === "score_pass_rate";

/** A metric's value over a window and how many samples it rests on; null value: nothing to read. */
export interface Reading {
  value: number | null;
  samples: number;
}

/**
 * The monitored figure of a window's metrics. Samples are the window's runs (or spans), or those
 * that report time to first token for the ttft metrics, or the evaluator's results with a score
 * (`score_mean`) or a pass/fail verdict (`score_pass_rate`). `count` is never without a value: zero
 * runs is what a "traffic stopped" monitor watches. Pure.
 */
export function readMetric(name: MetricName, m: MetricFigures, usageKind = "total"): Reading {
  if (name === "score_mean") return { value: m.scores.mean ?? null, samples: m.scores.score_count };
  if (name === "score_pass_rate") return { value: m.scores.pass_rate ?? null, samples: m.scores.verdict_count };
  const samples = name.startsWith("ttft_") ? m.ttft_ms.count : m.count;
  const some = (v: number): Reading => ({ value: samples > 0 ? v : null, samples });
  switch (name) {
    case "count":
      return { value: m.count, samples: m.count };
    case "errors":
      return some(m.errors);
    case "error_rate":
      return some(m.error_rate);
    case "latency_mean":
      return some(m.latency_ms.mean);
    case "latency_p50":
      return some(m.latency_ms.p50);
    case "latency_p90":
      return some(m.latency_ms.p90);
    case "latency_p99":
      return some(m.latency_ms.p99);
    case "ttft_p50":
      return some(m.ttft_ms.p50);
    case "ttft_p90":
      return some(m.ttft_ms.p90);
    case "ttft_p99":
      return some(m.ttft_ms.p99);
    case "tokens":
      return some(m.tokens[usageKind] ?? 0);
    case "cost":
      return some(m.costs[usageKind] ?? 0);
    case "budget_use":
      throw new Error("budget_use is read from the budget, not from analytics");
  }
}

/** How a metric reads in a message: a rate as a percent, money in USD, times in ms. */
export function formatValue(name: MetricName, value: number | null): string {
  if (value === null) return "no data";
  if (name === "error_rate" || name === "score_pass_rate") return `${round(value * 100, 2)}%`;
  if (name === "budget_use") return `${round(value, 1)}%`;
  if (name === "cost") return `$${round(value, 6)}`;
  if (name.startsWith("latency") || name.startsWith("ttft")) return `${round(value, 1)} ms`;
  return String(round(value, 3));
}

const round = (v: number, digits: number) => Math.round(v * 10 ** digits) / 10 ** digits;

export const METRIC_LABELS: Record<MetricName, string> = {
  count: "run count",
  errors: "errors",
  error_rate: "error rate",
  latency_mean: "mean latency",
  latency_p50: "latency p50",
  latency_p90: "latency p90",
  latency_p99: "latency p99",
  ttft_p50: "time to first token p50",
  ttft_p90: "time to first token p90",
  ttft_p99: "time to first token p99",
  tokens: "tokens",
  cost: "cost",
  score_mean: "mean evaluator score",
  score_pass_rate: "evaluator pass rate",
  budget_use: "budget use",
};
