import { describe, expect, it } from "vitest";
import type { AnalyticsMetrics } from "@/server/analytics";
import { axisUsd, CHART_METRICS } from "./metric-values";

const empty = {
  count: 0,
  errors: 0,
  error_rate: 0,
  tokens: {},
  costs: {},
  latency_ms: { mean: 0, p50: 0, p90: 0, p99: 0 },
  ttft_ms: { count: 0, mean: 0, p50: 0, p90: 0, p99: 0 },
  scores: { count: 0, score_count: 0, verdict_count: 0 },
} satisfies AnalyticsMetrics;

describe("chart values", () => {
  it("leaves a gap for latency, error rate and score where nothing ran, and counts zero runs as 0", () => {
    expect(CHART_METRICS.latency.value(empty)).toBeNull();
    expect(CHART_METRICS.error_rate.value(empty)).toBeNull();
    expect(CHART_METRICS.score.value(empty)).toBeNull();
    expect(CHART_METRICS.runs.value(empty)).toBe(0);
    const ran = { ...empty, count: 2, errors: 1, error_rate: 0.5, latency_ms: { mean: 5, p50: 4, p90: 6, p99: 6 } };
    expect(CHART_METRICS.latency.value(ran)).toBe(4);
    expect(CHART_METRICS.error_rate.value(ran)).toBe(50);
  });

  it("writes axis amounts short: small costs keep two significant digits", () => {
    expect([0, 0.000123, 0.0015, 0.25, 3.456, 42.4].map(axisUsd)).toEqual([
      "$0",
      "$0.00012",
      "$0.0015",
      "$0.25",
      "$3.46",
      "$42",
    ]);
  });
});
