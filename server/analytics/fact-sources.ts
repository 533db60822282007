import { liveEvaluatorResultsSql } from "@/server/evaluations";
import {
  DETAIL_DIMENSIONS,
  NARROW_DETAIL,
  ROLLUP_DETAIL,
  ROLLUP_SCALARS,
  rollupFactsSql,
  rollupRowsSql,
  spanFactsSql,
  spanRowsSql,
  traceRootSql,
  type RollupGrain,
  type SpanDimension,
  type SqlParams,
} from "@/server/tracing";
import { dimensionColumns, filterSql, someConditionField } from "./analytics-filter";
import type { AnalyticsGroup } from "./query-request";
import type { BucketWindow } from "./time-buckets";

export type FactSource = "rollup" | "scan";

export interface FactQuery {
  projectId: string;
  focus: "run" | "span";
  window: BucketWindow;
  group?: AnalyticsGroup;
  filtering?: unknown;
}

/**
 * The span roll-up rows a query reads (span_rollups' `detail`). By day, when it groups by at most
 * one dimension and filters on no other (the trace type aside), the narrow day rows of that
 * dimension (or of none): a row per day and value. Else those with revision, API key and user
 * when it groups or filters by one of them, or those summed over them; both with the rows of
 * spans that name none of them.
 */
export function rollupDetails(group: AnalyticsGroup | undefined, filtering: unknown, grain?: RollupGrain): number[] {
  const kept = spanDimension(group) ? group : undefined;
  if (
    grain === "day" &&
    (group === undefined || group === "evaluator" || kept) &&
    !someConditionField(filtering, (field) => field !== kept && field !== "trace_type")
  )
    return [NARROW_DETAIL[kept ?? "total"]];
  const detailed = (field: unknown) => (DETAIL_DIMENSIONS as readonly unknown[]).includes(field);
  const needed = detailed(group) || someConditionField(filtering, detailed);
  return [ROLLUP_DETAIL.none, needed ? ROLLUP_DETAIL.with : ROLLUP_DETAIL.summed];
}

/**
 * The rows both sources aggregate, one relation with the same columns: per roll-up row (or per
 * span, for the scan) its bucket in the query's zone, its group key and its sums. Runs are the
 * root spans of traces that are not annotations; their tokens and costs are the run's totals
 * (the root's cumulative figures), a span's are its own.
 */
export function factsSql(source: FactSource, query: FactQuery, params: SqlParams): string {
  const { window } = query;
  const unit = params.add(window.unit, "::text");
  const zone = params.add(window.timezone, "::text");
  const project = params.add(query.projectId, "::uuid");
  const start = params.add(window.starts[0].toISOString(), "::timestamptz");
  const end = params.add(window.end.toISOString(), "::timestamptz");
  const bucketOf = (time: string) => `date_trunc(${unit}, ${time} at time zone ${zone}) at time zone ${zone}`;
  const runs = query.focus === "run";

  if (source === "rollup") {
    const key = spanDimension(query.group) ? dimensionColumns("rollup")[query.group] : "''";
    const r = rollupFactsSql("r");
    return rollupRowsSql(
      "r",
      `${bucketOf("r.bucket")} as bucket, ${key} as key, ${ROLLUP_SCALARS.map((c) => `r.${c}`).join(", ")},
        ${r.latency} as latency, ${r.ttft} as ttft, ${runs ? r.runTokens : r.tokens} as tokens,
        ${runs ? r.runCosts : r.costs} as costs`,
      {
        project,
        grain: params.add(window.grain ?? "", "::text"),
        from: start,
        to: end,
        details: rollupDetails(query.group, query.filtering, window.grain),
        runs,
        where: filterSql(query.filtering, params, "rollup"),
      },
    );
  }

  const f = spanFactsSql("s");
  const key = scanKey(query.group, params);
  return spanRowsSql(
    "s",
    `${bucketOf("s.start_time")} as bucket, ${key} as key, 1 as spans,
      case when ${f.error} then 1 else 0 end as errors, ${f.durationMs} as duration_ms,
      case when ${f.ttftMs} is not null then 1 else 0 end as ttft_count, coalesce(${f.ttftMs}, 0) as ttft_ms,
      jsonb_build_object(${f.latencyBin}::text, 1) as latency,
      case when ${f.ttftBin} is not null then jsonb_build_object(${f.ttftBin}::text, 1) else '{}'::jsonb end as ttft,
      ${runs ? f.runTokens : f.tokens} as tokens, ${runs ? f.runCosts : f.costs} as costs`,
    {
      project,
      from: start,
      to: end,
      only: runs ? "runs" : undefined,
      where: [filterSql(query.filtering, params, "scan")],
    },
  );
}

/** A group that spans have: evaluator is a dimension of scores only (every span is in its '' group). */
const spanDimension = (group: AnalyticsGroup | undefined): group is SpanDimension =>
  typeof group === "string" && group !== "evaluator";

/** The group key over a span row `s` (the scan; for scores, the scored run's root). */
function scanKey(group: AnalyticsGroup | undefined, params: SqlParams): string {
  if (!group || group === "evaluator") return "''";
  if (typeof group === "string") return dimensionColumns("scan")[group];
  return `coalesce(s.attributes #>> ${params.add(`{${group.attribute.split(".").join(",")}}`, "::text[]")}, '')`;
}

// The scan's side of drizzle/0032's evaluation_score_rollup_key: a live run's evaluator result
// (an annotation step's success with a numeric score or boolean success; evaluations'
// liveEvaluatorResultsSql), at its run's root span. The filter is compiled inside the span's
// subquery, where trace-query fields name the span's columns only; a result whose run has no
// stored root matches no filter.

/**
 * The score facts of live evaluations, the same columns from either source: per roll-up row (or
 * per evaluator result, for the scan) its bucket in the query's zone, group key and sums. A
 * result counts in the bucket of the run it scored (its root span's start), whenever it was
 * written. Scores belong to runs: `focus` does not change them.
 */
export function scoreFactsSql(source: FactSource, query: FactQuery, params: SqlParams): string {
  const { window } = query;
  const unit = params.add(window.unit, "::text");
  const zone = params.add(window.timezone, "::text");
  const project = params.add(query.projectId, "::uuid");
  const start = params.add(window.starts[0].toISOString(), "::timestamptz");
  const end = params.add(window.end.toISOString(), "::timestamptz");
  const bucketOf = (time: string) => `date_trunc(${unit}, ${time} at time zone ${zone}) at time zone ${zone}`;

  if (source === "rollup") {
    const key =
      query.group === "evaluator"
        ? "r.evaluator"
        : spanDimension(query.group)
          ? dimensionColumns("rollup")[query.group]
          : "''";
    return `select ${bucketOf("r.bucket")} as bucket, ${key} as key, r.results, r.scores, r.score_sum, r.verdicts, r.passes
      from evaluation_score_rollups r
      where r.project_id = ${project} and r.grain = ${params.add(window.grain ?? "", "::text")}
        and r.bucket >= ${start} and r.bucket < ${end}
        and (${filterSql(query.filtering, params, "rollup")})`;
  }
  const key = query.group === "evaluator" ? "e.evaluator" : scanKey(query.group, params);
  const isScore = `jsonb_typeof(e.outputs -> 'score') = 'number'`;
  const isVerdict = `jsonb_typeof(e.outputs -> 'success') = 'boolean'`;
  const root = traceRootSql(
    "s",
    `s.*, (${filterSql(query.filtering, params, "scan")}) as kept`,
    "e.project_id",
    "e.trace_id",
  );
  return `select ${bucketOf("at.at")} as bucket, ${key} as key, 1 as results,
      case when ${isScore} then 1 else 0 end as scores,
      case when ${isScore} then (e.outputs ->> 'score')::float8 else 0 end as score_sum,
      case when ${isVerdict} then 1 else 0 end as verdicts,
      case when e.outputs -> 'success' = 'true'::jsonb then 1 else 0 end as passes
    from (${liveEvaluatorResultsSql(project)}) e
    left join lateral (${root}) s on true
    cross join lateral (select coalesce(s.start_time, e.timestamp) as at) at
    where (${isScore} or ${isVerdict})
      and at.at >= ${start} and at.at < ${end}
      and coalesce(s.kept, ${query.filtering ? "false" : "true"})`;
}

/** Sums score facts per bucket and group, as the long rows of aggregateSql (kind 'n'). */
export function scoreAggregateSql(facts: string): string {
  return `with facts as materialized (${facts}),
    sums as (select bucket, key, sum(results)::float8 as results, sum(scores)::float8 as scores,
      sum(score_sum)::float8 as score_sum, sum(verdicts)::float8 as verdicts, sum(passes)::float8 as passes
      from facts group by 1, 2)
    select bucket, key, 'n' as kind, x.name, x.value from sums cross join lateral
      (values ('results', results), ('scores', scores), ('score_sum', score_sum), ('verdicts', verdicts), ('passes', passes)) as x(name, value)
    order by 1, 2, 3, 4`;
}

/**
 * Sums the facts per bucket and group, as long rows: `kind` 'n' with the scalar sums by name, or
 * a map (latency, ttft, tokens, costs) with one row per key. One statement, one pass over the facts.
 * In key order: the caller adds the rows up as doubles, so the same order from either source gives
 * the same totals to the last bit (in any order, a large total's last bits depend on it, which
 * rounding to 12 decimals does not always hide).
 */
export function aggregateSql(facts: string): string {
  return `with facts as materialized (${facts}),
    sums as (select bucket, key, ${ROLLUP_SCALARS.map((c) => `sum(${c})::float8 as ${c}`).join(", ")}
      from facts group by 1, 2)
    select bucket, key, 'n' as kind, x.name, x.value from sums cross join lateral
      (values ${ROLLUP_SCALARS.map((c) => `('${c}', ${c})`).join(", ")}) as x(name, value)
    union all
    select f.bucket, f.key, m.kind, e.key as name, sum(e.value::numeric)::float8 as value
      from facts f cross join lateral (values ('latency', f.latency), ('ttft', f.ttft), ('tokens', f.tokens), ('costs', f.costs)) as m(kind, map)
      cross join lateral jsonb_each(case when jsonb_typeof(m.map) = 'object' then m.map else '{}'::jsonb end) as e
      where jsonb_typeof(e.value) = 'number'
      group by 1, 2, 3, 4
    order by 1, 2, 3, 4`;
}
