import { BadRequestError } from "@/server/core/errors";
import { rawQuery, type Executor } from "@/server/db";
import { SqlParams } from "@/server/tracing";
import { filterNeedsScan } from "./analytics-filter";
import { aggregateSql, factsSql } from "./fact-sources";
import { addInto, emptyAccumulator, toMetrics, type Accumulator, type AnalyticsMetrics } from "./metrics";

const QUARTER_MS = 15 * 60_000;

/** One total over a window: a project's runs or spans, filtered on the roll-up's dimensions. */
export interface WindowTotalsRequest {
  projectId: string;
  focus: "run" | "span";
  filtering?: unknown;
  oldest: Date;
  newest: Date;
}

export interface WindowTotals {
  /** The roll-up buckets read: [oldest down to its quarter hour, newest up to its quarter hour). */
  windowStart: Date;
  windowEnd: Date;
  metrics: AnalyticsMetrics;
}

/** The quarter-hour roll-up buckets that a window touches, as [start, end). */
export function quarterCover(oldest: Date, newest: Date): { start: Date; end: Date } {
  const start = Math.floor(oldest.getTime() / QUARTER_MS) * QUARTER_MS;
  const end = Math.max(Math.ceil(newest.getTime() / QUARTER_MS) * QUARTER_MS, start + QUARTER_MS);
  return { start: new Date(start), end: new Date(end) };
}

/**
 * Totals of many windows in one statement, read from the quarter-hour roll-ups (never the spans):
 * what a worker evaluating many monitors needs, where `queryAnalytics` would cost two statements
 * per window. A window is widened to the quarter hours it touches, the finest grain kept. A
 * filter must be on the roll-up's dimensions (a 400 otherwise). Answers in the requests' order.
 */
export async function queryWindowTotals(db: Executor, requests: WindowTotalsRequest[]): Promise<WindowTotals[]> {
  if (!requests.length) return [];
  const params = new SqlParams();
  const covers = requests.map((r) => quarterCover(r.oldest, r.newest));
  const parts = requests.map((request, i) => {
    if (filterNeedsScan(request.filtering))
      throw new BadRequestError(
        "A window total filters on the roll-up's dimensions only (agent, model, provider, environment, revision, api_key, user, trace_type).",
        "invalid_filtering",
      );
    const { start, end } = covers[i];
    const facts = factsSql(
      "rollup",
      {
        projectId: request.projectId,
        focus: request.focus,
        window: { unit: "day", timezone: "UTC", starts: [start], end, grain: "quarter" },
        filtering: request.filtering,
      },
      params,
    );
    // The request's index stands in for the group key, so one aggregate answers every window.
    return `select bucket, '${i}' as key, spans, errors, duration_ms, ttft_count, ttft_ms, latency, ttft, tokens, costs
      from (${facts}) f${i}`;
  });
  const rows = await rawQuery<{ key: string; kind: string; name: string; value: number | string }>(
    db,
    aggregateSql(parts.join("\nunion all\n")),
    params.values,
  );
  const sums: Accumulator[] = requests.map(() => emptyAccumulator());
  for (const row of rows) {
    const acc = sums[Number(row.key)];
    const value = Number(row.value);
    if (row.kind === "n") addScalar(acc, row.name, value);
    else {
      const map = acc[row.kind as "latency" | "ttft" | "tokens" | "costs"];
      map[row.name] = (map[row.name] ?? 0) + value;
    }
  }
  return sums.map((acc, i) => ({
    windowStart: covers[i].start,
    windowEnd: covers[i].end,
    metrics: toMetrics(addInto(emptyAccumulator(), acc)),
  }));
}

function addScalar(acc: Accumulator, name: string, value: number): void {
  if (name === "spans") acc.spans += value;
  else if (name === "errors") acc.errors += value;
  else if (name === "duration_ms") acc.durationMs += value;
  else if (name === "ttft_count") acc.ttftCount += value;
  else if (name === "ttft_ms") acc.ttftMs += value;
}
