import { ROLLUP_DIMENSION_COLUMNS, ROLLUP_MAPS, ROLLUP_SCALARS } from "./rollup-columns";
import type { SpanDimension } from "./span-facts";

/**
 * SQL fragments for the areas that read this area's tables (server/analytics, monitors through
 * it): they never name `spans` or `span_rollups` themselves, they ask for rows here. Every
 * expression (project, bounds, trace id) is the caller's SQL (a parameter, or a column of an
 * outer query); `select` is the caller's select list over `alias`.
 */

/** A run: the root span of a trace that is not an annotation. */
const spanIsRun = (a: string) => `${a}.parent_id is null and ${a}.trace_type <> 'annotation'`;
const rollupIsRun = (a: string) => `${a}.root and ${a}.trace_type <> 'annotation'`;

export interface SpanRowsQuery {
  /** The project id, as SQL. */
  project: string;
  /** [from, to) of the spans' start time, or of when they were ingested (`created_at`), as SQL. */
  from: string;
  to: string;
  time?: "start_time" | "created_at";
  /** `roots`: root spans; `runs`: the root spans of traces that are not annotations. */
  only?: "roots" | "runs";
  /** More conditions (each in parentheses), such as a compiled trace filter. */
  where?: string[];
  limit?: number;
}

/** `select <select> from spans <alias> where ...`: a project's spans in a window of time. */
export function spanRowsSql(alias: string, select: string, q: SpanRowsQuery): string {
  const a = alias;
  const time = `${a}.${q.time ?? "start_time"}`;
  const only = q.only === "runs" ? spanIsRun(a) : q.only === "roots" ? `${a}.parent_id is null` : undefined;
  const where = [
    `${a}.project_id = ${q.project}`,
    `${time} >= ${q.from}`,
    `${time} < ${q.to}`,
    ...(only ? [only] : []),
    ...(q.where ?? []).map((w) => `(${w})`),
  ];
  return `select ${select} from spans ${a} where ${where.join(" and ")}${q.limit !== undefined ? ` limit ${q.limit}` : ""}`;
}

/** `select <select> from spans <alias> ...`: the root span of a trace (the earliest, should there be two). */
export function traceRootSql(alias: string, select: string, project: string, traceId: string): string {
  const a = alias;
  return `select ${select} from spans ${a}
    where ${a}.project_id = ${project} and ${a}.trace_id = ${traceId} and ${a}.parent_id is null
    order by ${a}.start_time limit 1`;
}

export interface RollupRowsQuery {
  /** The project id, the grain and the bucket range [from, to), as SQL. */
  project: string;
  grain: string;
  from: string;
  to: string;
  /** The `detail`s read (ROLLUP_DETAIL): a list, or SQL of a smallint[]. */
  details: readonly number[] | string;
  /** Runs only: yes, no, or SQL of a boolean that decides per row. */
  runs: boolean | string;
  /** A condition over the row's columns (its dimensions: rollupDimensionsSql). */
  where?: string;
}

/** `select <select> from span_rollups <alias> where ...`: a project's roll-up rows of one grain in a range. */
export function rollupRowsSql(alias: string, select: string, q: RollupRowsQuery): string {
  const a = alias;
  const details = typeof q.details === "string" ? `= any(${q.details})` : `in (${q.details.join(", ")})`;
  const runs =
    q.runs === true ? ` and ${rollupIsRun(a)}` : q.runs === false ? "" : ` and (not ${q.runs} or (${rollupIsRun(a)}))`;
  return `select ${select} from span_rollups ${a}
    where ${a}.project_id = ${q.project} and ${a}.grain = ${q.grain} and ${a}.detail ${details}
      and ${a}.bucket >= ${q.from} and ${a}.bucket < ${q.to}${runs}${q.where ? ` and (${q.where})` : ""}`;
}

/** The dimensions of a roll-up row, as SQL over `alias` (spanDimensionsSql's counterpart). */
export function rollupDimensionsSql(alias: string): Record<SpanDimension, string> {
  return Object.fromEntries(
    Object.entries(ROLLUP_DIMENSION_COLUMNS).map(([dimension, column]) => [dimension, `${alias}.${column}`]),
  ) as Record<SpanDimension, string>;
}

/**
 * The sums of a roll-up row, as SQL over `alias`, by the names spanFactsSql gives a span's: the
 * scalar sums, the histograms, a span's own tokens and costs and a run's totals.
 */
export function rollupFactsSql(alias: string): {
  spans: string;
  errors: string;
  durationMs: string;
  ttftCount: string;
  ttftMs: string;
  latency: string;
  ttft: string;
  tokens: string;
  costs: string;
  runTokens: string;
  runCosts: string;
} {
  const camel = (column: string) => column.replace(/_(\w)/g, (_, c: string) => c.toUpperCase());
  return Object.fromEntries(
    [...ROLLUP_SCALARS, ...ROLLUP_MAPS].map((column) => [camel(column), `${alias}.${column}`]),
  ) as ReturnType<typeof rollupFactsSql>;
}
