"use client";

import {
  Bar,
  CartesianGrid,
  ComposedChart,
  Legend,
  Line,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { SERIES_COLOURS } from "@/components/analytics/metric-chart";
import { formatScore, roundPoints } from "./report-math";
import type { Round } from "./types";

const percent = (v: number) => `${Math.round(v * 100)}%`;

/**
 * The rounds so far: each candidate's train score as a bar, the best score after each round as a
 * line, the base's train score (once known) as a dashed reference. Drawn with Recharts, as the
 * analytics charts are.
 */
export function RoundChart({
  history,
  baseScore,
  height = 200,
}: {
  history: Round[];
  baseScore?: number;
  height?: number;
}) {
  const { points, candidates } = roundPoints(history);
  return (
    <figure className="flex flex-col gap-1" aria-label="Scores per round" data-testid="round-chart">
      <div style={{ height }}>
        <ResponsiveContainer width="100%" height="100%">
          <ComposedChart data={points} margin={{ top: 14, right: 8, bottom: 0, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="currentColor" strokeOpacity={0.1} vertical={false} />
            <XAxis dataKey="round" tick={{ fontSize: 11 }} />
            <YAxis domain={[0, 1]} tick={{ fontSize: 11 }} width={40} tickFormatter={percent} />
            <Tooltip formatter={(v) => formatScore(Number(v))} />
            <Legend wrapperStyle={{ fontSize: 11 }} iconSize={8} />
            {Array.from({ length: candidates }, (_, i) => (
              <Bar
                key={i}
                dataKey={`c${i + 1}`}
                name={`Candidate ${i + 1}`}
                fill={SERIES_COLOURS[(i + 1) % SERIES_COLOURS.length]}
                fillOpacity={0.55}
                isAnimationActive={false}
              />
            ))}
            <Line
              dataKey="best"
              name="Best so far"
              type="linear"
              dot={{ r: 3 }}
              stroke={SERIES_COLOURS[0]}
              strokeWidth={2}
              isAnimationActive={false}
            />
            {baseScore !== undefined && (
              <ReferenceLine
                y={baseScore}
                stroke="#94a3b8"
                strokeDasharray="4 2"
                label={{ value: "base", fontSize: 10, position: "insideTopLeft" }}
              />
            )}
          </ComposedChart>
        </ResponsiveContainer>
      </div>
      <figcaption className="sr-only">
        {points.map((p) => `${p.round}: best ${formatScore(p.best)}`).join("; ")}
      </figcaption>
    </figure>
  );
}
