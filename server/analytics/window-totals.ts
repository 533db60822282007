import { rawQuery, type Executor } from "@/server/db";
import { ROLLUP_SCALARS, rollupFactsSql, rollupRowsSql, type RollupGrain, type SpanDimension } from "@/server/tracing";
import { dimensionColumns } from "./analytics-filter";
import { aggregateSql, rollupDetails, scoreAggregateSql } from "./fact-sources";
import { addFact, emptyAccumulator, toMetrics, type Accumulator, type AnalyticsMetrics, type MapName } from "./metrics";

const QUARTER_MS = 15 * 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** The per-kind maps a caller may need; the others are not read (they cost most of the statement). */
export type WindowMap = MapName;

/** One total over a window: a project's runs or spans, of one value of a roll-up dimension or all. */
export interface WindowTotalsRequest {
  projectId: string;
  focus: "run" | "span";
  /** Only the rows whose dimension has this value (a monitor's scope). */
  filter?: { field: SpanDimension; value: string };
  oldest: Date;
  newest: Date;
  /** The maps to sum (default none: counts, errors, durations and ttft sums only). */
  maps?: WindowMap[];
  /**
   * Read the scores of live evaluations instead of the spans: one evaluator's results
   * (evaluation_score_rollups) on the runs of the window. The metrics' span figures are zeros then.
   */
  scores?: { evaluator: string };
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
 * [start, end) (quarter-hour aligned) as the fewest roll-up rows: whole UTC days from the day
 * grain, whole hours around them from the hour grain, the quarter hours at the edges. Pure.
 */
export function grainSegments(start: number, end: number): { grain: RollupGrain; from: number; to: number }[] {
  const up = (t: number, unit: number) => Math.ceil(t / unit) * unit;
  const down = (t: number, unit: number) => Math.floor(t / unit) * unit;
  const h1 = Math.min(up(start, HOUR_MS), end);
  const h2 = Math.max(down(end, HOUR_MS), h1);
  const d1 = Math.min(up(h1, DAY_MS), h2);
  const d2 = Math.max(down(h2, DAY_MS), d1);
  return (
    [
      ["quarter", start, h1],
      ["hour", h1, d1],
      ["day", d1, d2],
      ["hour", d2, h2],
      ["quarter", h2, end],
    ] as const
  )
    .filter(([, from, to]) => to > from)
    .map(([grain, from, to]) => ({ grain, from, to }));
}

const dimensionCase = `case w.field ${Object.entries(dimensionColumns("rollup"))
  .map(([field, column]) => `when '${field}' then ${column}`)
  .join(" ")} end`;

/**
 * The rows of every window's segments: one recordset parameter, each segment read by an index
 * scan of the roll-ups' key (project, grain, bucket range), so the statement's text (and plan) is
 * the same for any number of windows. `offset 0` keeps the lateral subquery a per-segment scan:
 * flattened into a join, the planner (which guesses 100 segments) hashes a scan of the table.
 */
const r = rollupFactsSql("r");
const SEGMENT_ROWS = `select null::timestamptz as bucket, w.i::text as key, ${ROLLUP_SCALARS.map((c) => `r.${c}`).join(", ")},
    case when w.latency then ${r.latency} else '{}'::jsonb end as latency,
    case when w.ttft then ${r.ttft} else '{}'::jsonb end as ttft,
    case when not w.tokens then '{}'::jsonb when w.runs then ${r.runTokens} else ${r.tokens} end as tokens,
    case when not w.costs then '{}'::jsonb when w.runs then ${r.runCosts} else ${r.costs} end as costs
  from jsonb_to_recordset($1::jsonb) as w(i int, project_id uuid, grain text, details smallint[], f timestamptz,
    t timestamptz, runs boolean, field text, value text, latency boolean, ttft boolean, tokens boolean, costs boolean)
  cross join lateral (
    ${rollupRowsSql("r", "*", {
      project: "w.project_id",
      grain: "w.grain",
      from: "w.f",
      to: "w.t",
      details: "w.details",
      runs: "w.runs",
      where: `w.field is null or ${dimensionCase} = w.value`,
    })}
    offset 0) r`;
const WINDOW_TOTALS_SQL = aggregateSql(SEGMENT_ROWS);

/** SEGMENT_ROWS over the score roll-ups, one evaluator's rows. */
const SCORE_SEGMENT_ROWS = `select null::timestamptz as bucket, w.i::text as key, r.results, r.scores, r.score_sum,
    r.verdicts, r.passes
  from jsonb_to_recordset($1::jsonb) as w(i int, project_id uuid, grain text, f timestamptz, t timestamptz,
    evaluator text, field text, value text)
  cross join lateral (
    select * from evaluation_score_rollups r
    where r.project_id = w.project_id and r.grain = w.grain and r.bucket >= w.f and r.bucket < w.t
      and r.evaluator = w.evaluator and (w.field is null or ${dimensionCase} = w.value)
    offset 0) r`;
const SCORE_TOTALS_SQL = scoreAggregateSql(SCORE_SEGMENT_ROWS);

/**
 * Totals of many windows in one statement, read from the roll-ups (never the spans): what a
 * worker evaluating many monitors needs, where `queryAnalytics` would cost two statements per
 * window. A window is widened to the quarter hours it touches, the finest grain kept, and read
 * at the coarsest grain each part of it aligns with. Answers in the requests' order.
 */
export async function queryWindowTotals(db: Executor, requests: WindowTotalsRequest[]): Promise<WindowTotals[]> {
  if (!requests.length) return [];
  const covers = requests.map((r) => quarterCover(r.oldest, r.newest));
  const segmentsOf = (request: WindowTotalsRequest, i: number) =>
    grainSegments(covers[i].start.getTime(), covers[i].end.getTime()).map((s) => ({
      i,
      project_id: request.projectId,
      grain: s.grain,
      f: new Date(s.from).toISOString(),
      t: new Date(s.to).toISOString(),
      field: request.filter?.field ?? null,
      value: request.filter?.value ?? null,
    }));
  const spanSegments = requests.flatMap((request, i) => {
    if (request.scores) return [];
    const maps = new Set(request.maps ?? []);
    const details = rollupDetails(undefined, request.filter && { field: request.filter.field });
    return segmentsOf(request, i).map((s) => ({
      ...s,
      details,
      runs: request.focus === "run",
      latency: maps.has("latency"),
      ttft: maps.has("ttft"),
      tokens: maps.has("tokens"),
      costs: maps.has("costs"),
    }));
  });
  const scoreSegments = requests.flatMap((request, i) =>
    request.scores ? segmentsOf(request, i).map((s) => ({ ...s, evaluator: request.scores!.evaluator })) : [],
  );
  type Row = { key: string; kind: string; name: string; value: number | string };
  const rows = [
    ...(spanSegments.length ? await rawQuery<Row>(db, WINDOW_TOTALS_SQL, [JSON.stringify(spanSegments)]) : []),
    ...(scoreSegments.length ? await rawQuery<Row>(db, SCORE_TOTALS_SQL, [JSON.stringify(scoreSegments)]) : []),
  ];
  const sums: Accumulator[] = requests.map(() => emptyAccumulator());
  for (const row of rows) {
    const acc = sums[Number(row.key)];
    addFact(acc, row.kind, row.name, Number(row.value));
  }
  return sums.map((acc, i) => ({ windowStart: covers[i].start, windowEnd: covers[i].end, metrics: toMetrics(acc) }));
}
