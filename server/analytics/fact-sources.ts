import { spanFactsSql, type SqlParams } from "@/server/tracing";
import { dimensionColumns, filterSql } from "./analytics-filter";
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
    const key = query.group && typeof query.group === "string" ? dimensionColumns("rollup")[query.group] : "''";
    return `select ${bucketOf("r.bucket")} as bucket, ${key} as key, r.spans, r.errors, r.duration_ms,
        r.ttft_count, r.ttft_ms, r.latency, r.ttft, ${runs ? "r.run_tokens" : "r.tokens"} as tokens,
        ${runs ? "r.run_costs" : "r.costs"} as costs
      from span_rollups r
      where r.project_id = ${project} and r.grain = ${params.add(window.grain ?? "", "::text")}
        and r.bucket >= ${start} and r.bucket < ${end}
        ${runs ? "and r.root and r.trace_type <> 'annotation'" : ""}
        and (${filterSql(query.filtering, params, "rollup")})`;
  }

  const f = spanFactsSql("s");
  const key = !query.group
    ? "''"
    : typeof query.group === "string"
      ? dimensionColumns("scan")[query.group]
      : `coalesce(s.attributes #>> ${params.add(`{${query.group.attribute.split(".").join(",")}}`, "::text[]")}, '')`;
  return `select ${bucketOf("s.start_time")} as bucket, ${key} as key, 1 as spans,
      case when ${f.error} then 1 else 0 end as errors, ${f.durationMs} as duration_ms,
      case when ${f.ttftMs} is not null then 1 else 0 end as ttft_count, coalesce(${f.ttftMs}, 0) as ttft_ms,
      jsonb_build_object(${f.latencyBin}::text, 1) as latency,
      case when ${f.ttftBin} is not null then jsonb_build_object(${f.ttftBin}::text, 1) else '{}'::jsonb end as ttft,
      ${runs ? f.runTokens : f.tokens} as tokens, ${runs ? f.runCosts : f.costs} as costs
    from spans s
    where s.project_id = ${project} and s.start_time >= ${start} and s.start_time < ${end}
      ${runs ? "and s.parent_id is null and s.trace_type <> 'annotation'" : ""}
      and (${filterSql(query.filtering, params, "scan")})`;
}

/**
 * Sums the facts per bucket and group, as long rows: `kind` 'n' with the scalar sums by name, or
 * a map (latency, ttft, tokens, costs) with one row per key. One statement, one pass over the facts.
 */
export function aggregateSql(facts: string): string {
  return `with facts as materialized (${facts}),
    sums as (select bucket, key, sum(spans)::float8 as spans, sum(errors)::float8 as errors,
      sum(duration_ms)::float8 as duration_ms, sum(ttft_count)::float8 as ttft_count, sum(ttft_ms)::float8 as ttft_ms
      from facts group by 1, 2)
    select bucket, key, 'n' as kind, x.name, x.value from sums cross join lateral
      (values ('spans', spans), ('errors', errors), ('duration_ms', duration_ms), ('ttft_count', ttft_count), ('ttft_ms', ttft_ms)) as x(name, value)
    union all
    select f.bucket, f.key, m.kind, e.key as name, sum(e.value::numeric)::float8 as value
      from facts f cross join lateral (values ('latency', f.latency), ('ttft', f.ttft), ('tokens', f.tokens), ('costs', f.costs)) as m(kind, map)
      cross join lateral jsonb_each(case when jsonb_typeof(m.map) = 'object' then m.map else '{}'::jsonb end) as e
      where jsonb_typeof(e.value) = 'number'
      group by 1, 2, 3, 4`;
}
