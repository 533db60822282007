import {
  DETAIL_DIMENSIONS,
  NARROW_DETAIL,
  ROLLUP_DETAIL,
  spanDimensionsSql,
  spanFactsSql,
  type SpanDimension,
} from "@/server/tracing";
import { ROLLUP_DIMENSION_COLUMNS } from "@/server/tracing/store/rollup-columns";

/**
 * The benchmark's seeding writes millions of spans with generate_series, never through the
 * ingest worker, so it rolls them up in SQL: a statement whose CTE `span_changes` inserts spans
 * (returning CHANGE_COLUMNS and `sign`) is followed by an upsert of their roll-up, from the very
 * facts the scan computes (spanFactsSql). What it writes is checked: every query the benchmark
 * times compares the roll-up's answer with the scan's.
 */
export const CHANGE_COLUMNS = (alias: string) =>
  [
    "project_id",
    "parent_id",
    "trace_type",
    "start_time",
    "end_time",
    "status_code",
    "user_id",
    "agent_id",
    "attributes",
    `"references"`,
  ]
    .map((c) => `${alias}.${c}`)
    .join(", ");

const KEY =
  "project_id, grain, detail, bucket, root, trace_type, agent, model, provider, environment, revision, api_key, user_id";
/** Each dimension with its column. */
const DIMS = Object.entries(ROLLUP_DIMENSION_COLUMNS) as [SpanDimension, string][];
const NARROWS = Object.values(NARROW_DETAIL);
/** SQL: whether a row of detail `dt.detail` leaves the dimension '' (summed over it, or a narrow row of another). */
const blanked = (dimension: SpanDimension) =>
  `dt.detail in (${NARROWS.filter((d) => d !== NARROW_DETAIL[dimension]).join(", ")})` +
  ((DETAIL_DIMENSIONS as readonly string[]).includes(dimension) ? ` or dt.detail = ${ROLLUP_DETAIL.summed}` : "");
const MAPS = ["latency", "ttft", "tokens", "costs", "run_tokens", "run_costs"] as const;
const GRAINS: [string, string][] = [
  ["quarter", "15 minutes"],
  ["hour", "1 hour"],
  ["day", "1 day"],
];

/**
 * CTEs after `span_changes`, then the upsert. Set-based: the changed spans' facts once, times the
 * grains and details (ROLLUP_DETAIL, and NARROW_DETAIL's day rows); scalar sums grouped by key; the maps (histogram bins, usage
 * kinds) exploded into (key, kind, name, amount) rows, summed and folded back into one object per key.
 */
function rollupUpsert(): string {
  const d = spanDimensionsSql("c");
  const f = spanFactsSql("c");
  const grains = GRAINS.map(([g, stride]) => `('${g}', interval '${stride}')`).join(", ");
  const entries = (map: string) =>
    `select '${map}', e.key, g.sign * e.value::numeric from jsonb_each(case when jsonb_typeof(g.${map}) = 'object' then g.${map} else '{}'::jsonb end) as e where jsonb_typeof(e.value) = 'number'`;
  const merge = (c: string) => `${c} = rollup_map_add(span_rollups.${c}, excluded.${c}, 1)`;
  const add = (c: string) => `${c} = span_rollups.${c} + excluded.${c}`;
  return `, rollup_facts as materialized (select c.sign, c.project_id, c.start_time, ${f.root} as root, c.trace_type,
      ${d.agent} as agent, ${d.model} as model, ${d.provider} as provider, ${d.environment} as environment,
      ${d.revision} as revision, ${d.api_key} as api_key, ${d.user} as user_id,
      ${f.error} as error, ${f.durationMs} as duration_ms, ${f.latencyBin} as latency_bin,
      ${f.ttftMs} as ttft_ms, ${f.ttftBin} as ttft_bin,
      ${f.tokens} as tokens, ${f.costs} as costs, ${f.runTokens} as run_tokens, ${f.runCosts} as run_costs
      from span_changes c),
    rollup_grains as materialized (select f.sign, f.project_id, gr.grain, dt.detail,
      date_bin(gr.stride, f.start_time, timestamptz '2000-01-01 00:00:00+00') as bucket, f.root, f.trace_type,
      ${DIMS.map(([dimension, c]) => `case when ${blanked(dimension)} then '' else f.${c} end as ${c}`).join(", ")},
      f.error, f.duration_ms, f.latency_bin, f.ttft_ms, f.ttft_bin, f.tokens, f.costs, f.run_tokens, f.run_costs
      from rollup_facts f cross join (values ${grains}) as gr(grain, stride)
      cross join lateral (select (f.revision <> '' or f.api_key <> '' or f.user_id <> '') as detailed) as x
      cross join lateral (select ${ROLLUP_DETAIL.with} as detail where x.detailed
        union all select ${ROLLUP_DETAIL.summed} where x.detailed
        union all select ${ROLLUP_DETAIL.none} where not x.detailed
        union all select d from unnest(array[${NARROWS.join(", ")}]) as d where gr.grain = 'day') as dt),
    rollup_sums as (select ${KEY}, sum(sign) as spans, sum(case when error then sign else 0 end) as errors,
      sum(sign * duration_ms) as duration_ms, sum(case when ttft_ms is not null then sign else 0 end) as ttft_count,
      coalesce(sum(sign * ttft_ms), 0) as ttft_ms
      from rollup_grains group by ${KEY}),
    rollup_entries as (select ${KEY.split(", ")
      .map((k) => `g.${k}`)
      .join(", ")}, x.kind, x.name, sum(x.amount) as amount
      from rollup_grains g cross join lateral (
        select 'latency' as kind, g.latency_bin::text as name, g.sign::numeric as amount
        union all select 'ttft', g.ttft_bin::text, g.sign where g.ttft_bin is not null
        union all ${entries("tokens")} union all ${entries("costs")}
        union all ${entries("run_tokens")} union all ${entries("run_costs")}) as x
      group by ${KEY.split(", ")
        .map((k) => `g.${k}`)
        .join(", ")}, x.kind, x.name having sum(x.amount) <> 0),
    rollup_maps as (select ${KEY}, ${MAPS.map((m) => `jsonb_object_agg(name, amount) filter (where kind = '${m}') as ${m}`).join(", ")}
      from rollup_entries group by ${KEY})
  insert into span_rollups (${KEY}, spans, errors, duration_ms, latency, ttft_count, ttft_ms, ttft, tokens, costs, run_tokens, run_costs)
  select ${KEY}, s.spans, s.errors, s.duration_ms, coalesce(m.latency, '{}'), s.ttft_count, s.ttft_ms, coalesce(m.ttft, '{}'),
    coalesce(m.tokens, '{}'), coalesce(m.costs, '{}'), coalesce(m.run_tokens, '{}'), coalesce(m.run_costs, '{}')
  from rollup_sums s left join rollup_maps m using (${KEY})
  order by ${KEY}
  on conflict on constraint span_rollups_pkey do update set
    ${add("spans")}, ${add("errors")}, ${add("duration_ms")}, ${merge("latency")},
    ${add("ttft_count")}, ${add("ttft_ms")}, ${merge("ttft")},
    ${merge("tokens")}, ${merge("costs")}, ${merge("run_tokens")}, ${merge("run_costs")}`;
}

const UPSERT = rollupUpsert();

/** One statement: `ctes` defines `span_changes`, and the roll-up is upserted from it. */
export function withRollups(ctes: string): string {
  return `with ${ctes}${UPSERT}`;
}
