"use client";

import {
  Bar,
  BarChart,
  CartesianGrid,
  Line,
  LineChart,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import type { AnalyticsResult } from "@/server/analytics";
import { CHART_METRICS, type ChartMetric } from "./metric-values";

/** One colour per group, the same in every chart of the page. */
export const SERIES_COLOURS = ["#6366f1", "#10b981", "#f59e0b", "#ef4444", "#0ea5e9", "#a855f7", "#84cc16", "#64748b"];
/** Groups drawn as their own series; the rest are in the table. */
export const MAX_SERIES = 8;

/** A deploy drawn on the time axis: the bucket it happened in, and the environment. */
export interface Marker {
  bucket: number;
  label: string;
}

export interface Series {
  /** The group key on the wire ("" for spans without one). */
  key: string;
  label: string;
}

/**
 * One metric over the window, a series per group: bars for amounts that add up (runs, cost,
 * tokens), lines for rates and latencies. A click on a bucket hands its index to `onPick`.
 */
export function MetricChart({
  result,
  metric,
  series,
  height = 180,
  markers = [],
  onPick,
}: {
  result: AnalyticsResult;
  metric: ChartMetric;
  series: Series[];
  height?: number;
  markers?: Marker[];
  onPick?: (bucket: number, seriesKey?: string) => void;
}) {
  const { value } = CHART_METRICS[metric];
  const hourly = result.windowing.bucket !== "day";
  const data = result.buckets.map((b) => {
    const row: Record<string, number | string | null> = {
      label: new Date(b.timestamp).toLocaleString(
        undefined,
        hourly ? { hour: "2-digit", minute: "2-digit" } : { month: "short", day: "numeric" },
      ),
    };
    if (b.groups) for (const g of b.groups) row[g.key ?? ""] = value(g.metrics);
    else row[""] = value(b.metrics);
    return row;
  });
  const shown = result.groups ? series.slice(0, MAX_SERIES) : [{ key: "", label: "All" }];
  const stacked = metric === "runs" || metric === "cost" || metric === "tokens";
  const click = (state: { activeTooltipIndex?: number | string | null }) => {
    const index = Number(state?.activeTooltipIndex);
    if (onPick && Number.isInteger(index) && index >= 0) onPick(index);
  };
  const common = { data, onClick: click, margin: { top: 4, right: 8, bottom: 0, left: 0 } };
  const axes = (
    <>
      <CartesianGrid strokeDasharray="3 3" stroke="currentColor" strokeOpacity={0.1} vertical={false} />
      <XAxis dataKey="label" tick={{ fontSize: 11 }} minTickGap={16} />
      <YAxis tick={{ fontSize: 11 }} width={48} />
      <Tooltip />
      {markers.map((m, i) => (
        <ReferenceLine
          key={i}
          x={data[m.bucket]?.label ?? undefined}
          stroke="#94a3b8"
          strokeDasharray="4 2"
          label={{ value: m.label, fontSize: 10, position: "insideTopLeft" }}
          data-testid="deploy-marker"
        />
      ))}
    </>
  );
  return (
    <div style={{ height }} className="cursor-pointer">
      <ResponsiveContainer width="100%" height="100%">
        {stacked ? (
          <BarChart {...common}>
            {axes}
            {shown.map((s, i) => (
              <Bar
                key={s.key}
                dataKey={s.key}
                name={s.label}
                stackId="a"
                fill={SERIES_COLOURS[i % SERIES_COLOURS.length]}
                isAnimationActive={false}
              />
            ))}
          </BarChart>
        ) : (
          <LineChart {...common}>
            {axes}
            {shown.map((s, i) => (
              <Line
                key={s.key}
                dataKey={s.key}
                name={s.label}
                type="monotone"
                dot={false}
                stroke={SERIES_COLOURS[i % SERIES_COLOURS.length]}
                isAnimationActive={false}
              />
            ))}
          </LineChart>
        )}
      </ResponsiveContainer>
    </div>
  );
}
