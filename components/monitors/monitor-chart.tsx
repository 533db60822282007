"use client";

import { CartesianGrid, Line, LineChart, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { AnalyticsResult } from "@/server/analytics";
import { readMetric, type MetricFigures, type MetricName } from "@/shared/monitor-metrics";
import { isPercent } from "./monitor-draft";

const NOTHING_SCORED: MetricFigures = {
  count: 0,
  errors: 0,
  error_rate: 0,
  tokens: {},
  costs: {},
  latency_ms: { mean: 0, p50: 0, p90: 0, p99: 0 },
  ttft_ms: { count: 0, p50: 0, p90: 0, p99: 0 },
  scores: { count: 0, score_count: 0, verdict_count: 0 },
};

/**
 * A monitor's metric per bucket over the chart's range, the threshold drawn as a red line and the
 * recovery threshold as a dashed one. Error rates are drawn in percent, like the form takes them.
 */
export function MonitorChart({
  result,
  metric,
  usageKind,
  evaluator,
  threshold,
  recovery,
  height = 140,
}: {
  result: AnalyticsResult;
  metric: MetricName;
  usageKind?: string;
  /** Score metrics: the evaluator's group of a query grouped by evaluator. */
  evaluator?: string;
  threshold: number;
  recovery: number;
  height?: number;
}) {
  const scale = isPercent(metric) ? 100 : 1;
  const metricsOf = (b: AnalyticsResult["buckets"][number]) =>
    evaluator === undefined ? b.metrics : (b.groups?.find((g) => g.key === evaluator)?.metrics ?? NOTHING_SCORED);
  const daily = result.windowing.bucket === "day";
  const data = result.buckets.map((b) => ({
    label: new Date(b.timestamp).toLocaleString(
      undefined,
      daily ? { month: "short", day: "numeric" } : { hour: "2-digit", minute: "2-digit" },
    ),
    value: (readMetric(metric, metricsOf(b), usageKind).value ?? 0) * scale,
  }));
  return (
    <div
      role="img"
      aria-label={`Chart of ${metric} with the threshold at ${threshold * scale}`}
      data-testid="monitor-chart"
    >
      <ResponsiveContainer width="100%" height={height}>
        <LineChart data={data} margin={{ top: 4, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="currentColor" strokeOpacity={0.1} vertical={false} />
          <XAxis dataKey="label" tick={{ fontSize: 11 }} minTickGap={16} />
          <YAxis
            tick={{ fontSize: 11 }}
            width={48}
            domain={[0, (max: number) => Math.max(max, threshold * scale * 1.2)]}
          />
          <Tooltip />
          <Line type="monotone" dataKey="value" stroke="#6366f1" dot={false} isAnimationActive={false} />
          <ReferenceLine
            y={threshold * scale}
            stroke="#ef4444"
            label={{ value: "threshold", fontSize: 10, position: "insideTopRight" }}
          />
          {recovery !== threshold && (
            <ReferenceLine y={recovery * scale} stroke="#ef4444" strokeDasharray="4 4" strokeOpacity={0.6} />
          )}
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
