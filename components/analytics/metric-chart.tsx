"use client";

import { useRef } from "react";
import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import type { AnalyticsResult } from "@/server/analytics";
import { axisUsd, CHART_METRICS, type ChartMetric } from "./metric-values";

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
 * One metric over the window, a series per group (named in a legend): bars for amounts that add
 * up (runs, cost, tokens), straight lines for rates and latencies, broken where a bucket has no
 * runs (a gap, not a 0), with a dot per point so a lone one shows. A chart with no point at all
 * says "No data". Deploys are numbered lines, named under the chart (labels on the plot would
 * print on each other). A click on a bucket hands its index to `onPick`, and the series' key when
 * the click was on one of its bars or points.
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
  const hasData = data.some((row) => shown.some((s) => row[s.key] !== null && row[s.key] !== undefined));
  // A click on a bar or a line's dot names its series first (it bubbles up from the shape to the
  // chart), so the chart's own click hands over both; a click beside every series, the bucket alone.
  const pickedSeries = useRef<string | undefined>(undefined);
  const click = (state: { activeTooltipIndex?: number | string | null }) => {
    const index = Number(state?.activeTooltipIndex);
    const key = pickedSeries.current;
    pickedSeries.current = undefined;
    if (onPick && Number.isInteger(index) && index >= 0) onPick(index, result.groups ? key : undefined);
  };
  const pick = (key: string) => () => {
    pickedSeries.current = key;
  };
  const common = { data, onClick: click, margin: { top: 14, right: 8, bottom: 0, left: 0 } };
  const cost = metric === "cost";
  const axes = (
    <>
      <CartesianGrid strokeDasharray="3 3" stroke="currentColor" strokeOpacity={0.1} vertical={false} />
      <XAxis dataKey="label" tick={{ fontSize: 11 }} minTickGap={16} />
      <YAxis
        tick={{ fontSize: 11 }}
        width={cost ? 64 : 48}
        tickFormatter={cost ? axisUsd : undefined}
        allowDecimals={metric !== "runs"}
      />
      <Tooltip formatter={cost ? (v) => axisUsd(Number(v)) : undefined} />
      {result.groups && <Legend wrapperStyle={{ fontSize: 11 }} iconSize={8} />}
      {markers.map((m, i) => (
        <ReferenceLine
          key={i}
          x={data[m.bucket]?.label ?? undefined}
          stroke="#94a3b8"
          strokeDasharray="4 2"
          label={{ value: String(i + 1), fontSize: 10, position: "top" }}
        />
      ))}
    </>
  );
  if (!hasData)
    return (
      <div
        style={{ height }}
        className="flex items-center justify-center rounded-md border border-dashed border-line text-sm text-muted"
        data-testid="chart-no-data"
      >
        No data in this range
      </div>
    );
  return (
    <div className="cursor-pointer">
      <div style={{ height }}>
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
                  className={`series-${i}`}
                  onClick={pick(s.key)}
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
                  type="linear"
                  connectNulls={false}
                  dot={{ r: 2 }}
                  activeDot={{ r: 5, onClick: pick(s.key) }}
                  className={`series-${i}`}
                  stroke={SERIES_COLOURS[i % SERIES_COLOURS.length]}
                  isAnimationActive={false}
                />
              ))}
            </LineChart>
          )}
        </ResponsiveContainer>
      </div>
      {markers.length > 0 && (
        <ol className="mt-1 flex flex-wrap gap-x-3 text-[11px] text-muted" aria-label="Deploys in this range">
          {markers.map((m, i) => (
            <li key={i} data-testid="deploy-marker">
              {i + 1}. {m.label} ({data[m.bucket]?.label})
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
