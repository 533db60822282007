"use client";

import { CartesianGrid, Line, LineChart, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { AnalyticsResult } from "@/server/analytics";
import { readMetric, type MetricName } from "@/shared/monitor-metrics";

/**
 * A monitor's metric per bucket over the chart's range, the threshold drawn as a red line and the
 * recovery threshold as a dashed one. Error rates are drawn in percent, like the form takes them.
 */
export function MonitorChart({
  result,
  metric,
  usageKind,
  threshold,
  recovery,
  height = 140,
}: {
  result: AnalyticsResult;
  metric: MetricName;
  usageKind?: string;
  threshold: number;
  recovery: number;
  height?: number;
}) {
  const scale = metric === "error_rate" ? 100 : 1;
  const daily = result.windowing.bucket === "day";
  const data = result.buckets.map((b) => ({
    label: new Date(b.timestamp).toLocaleString(
      undefined,
      daily ? { month: "short", day: "numeric" } : { hour: "2-digit", minute: "2-digit" },
    ),
    value: (readMetric(metric, b.metrics, usageKind).value ?? 0) * scale,
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
