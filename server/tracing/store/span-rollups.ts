/**
 * The roll-up of spans into `span_rollups`, kept in the statement that changes them: every write
 * of `spans` (insert, replace, roll-up update, delete) is a data-modifying CTE named
 * `span_changes` that returns the changed rows with a sign (+1 written, -1 removed), and
 * `withRollups` adds the upsert that adds those rows' facts to their buckets. One statement, so a
 * span and its share of the roll-up are committed (or rolled back) together, and a span that
 * arrives late lands in the bucket of its start time.
 *
 * server/analytics reads the table; the facts are exported so its scan of `spans` (the reference
 * routes, groups by an arbitrary attribute, the benchmark's comparison) computes exactly what the
 * roll-up sums.
 */

/** Histogram bins grow by 2% (a relative error of at most 1% for a percentile read from them). */
export const LATENCY_GAMMA = 1.02;
/** Durations below this many milliseconds share the lowest bin. */
const MIN_MS = 0.001;

/**
 * The grains roll-ups are kept at (UTC); a query reads the coarsest one its buckets align with.
 * Quarter hours, not minutes: every zone's offset is a multiple of 15 minutes, and a minute grain
 * would write about one roll-up row per span (minute buckets are computed from the spans).
 */
export const ROLLUP_GRAINS = ["quarter", "hour", "day"] as const;
export type RollupGrain = (typeof ROLLUP_GRAINS)[number];

/** The histogram bin of a value in milliseconds, in SQL. */
export function binSql(ms: string): string {
  return `ceil(ln(greatest(${ms}, ${MIN_MS})) / ${Math.log(LATENCY_GAMMA)})::int`;
}

/** A bin's representative value (the midpoint of its range in relative terms). */
export function binValue(bin: number): number {
  return (2 * LATENCY_GAMMA ** bin) / (LATENCY_GAMMA + 1);
}

const num = (alias: string, path: string) =>
  `case when jsonb_typeof(${alias}.attributes #> '{${path}}') = 'number' then (${alias}.attributes #>> '{${path}}')::float8 end`;
const ref = (alias: string, key: string, field: string) =>
  `jsonb_path_query_first(${alias}."references", '$[*] ? (@.attributes.key == "${key}").${field}') #>> '{}'`;

/** The dimensions analytics groups by, as SQL over a row of `spans` (or of `span_changes`); '' when absent. */
export function spanDimensionsSql(alias: string): Record<SpanDimension, string> {
  return {
    agent: `coalesce(${alias}.agent_id, ${ref(alias, "workflow", "id")}, '')`,
    model: `coalesce(${alias}.attributes #>> '{ag,meta,request,model}', ${alias}.attributes #>> '{ag,meta,response,model}', '')`,
    provider: `coalesce(${alias}.attributes #>> '{ag,meta,system}', '')`,
    environment: `coalesce(${ref(alias, "environment", "slug")}, ${ref(alias, "environment", "id")}, '')`,
    revision: `coalesce(${ref(alias, "workflow_revision", "id")}, '')`,
    api_key: `coalesce(${alias}.attributes #>> '{ag,meta,api_key,id}', '')`,
    user: `coalesce(${alias}.user_id, '')`,
  };
}
export const SPAN_DIMENSIONS = ["agent", "model", "provider", "environment", "revision", "api_key", "user"] as const;
export type SpanDimension = (typeof SPAN_DIMENSIONS)[number];

/** The measured facts of one span row, as SQL. */
export function spanFactsSql(alias: string) {
  const duration = `greatest(extract(epoch from ${alias}.end_time - ${alias}.start_time) * 1000, 0)::float8`;
  const ttft = `coalesce(${num(alias, "ai,response,msToFirstChunk")}, 1000 * ${num(alias, "gen_ai,server,time_to_first_token")})`;
  return {
    root: `(${alias}.parent_id is null)`,
    error: `(${alias}.status_code = 'STATUS_CODE_ERROR' or coalesce(${num(alias, "ag,metrics,errors,incremental")}, 0) > 0)`,
    durationMs: duration,
    latencyBin: binSql(duration),
    ttftMs: ttft,
    ttftBin: `case when ${ttft} is not null then ${binSql(ttft)} end`,
    tokens: `(${alias}.attributes #> '{ag,metrics,tokens,incremental}')`,
    costs: `(${alias}.attributes #> '{ag,metrics,costs,incremental}')`,
    runTokens: `case when ${alias}.parent_id is null then ${alias}.attributes #> '{ag,metrics,tokens,cumulative}' end`,
    runCosts: `case when ${alias}.parent_id is null then ${alias}.attributes #> '{ag,metrics,costs,cumulative}' end`,
  };
}

/** The columns a `span_changes` CTE returns (besides `sign`). */
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
  "project_id, grain, bucket, root, trace_type, agent, model, provider, environment, revision, api_key, user_id";
const MAPS = ["latency", "ttft", "tokens", "costs", "run_tokens", "run_costs"] as const;
const GRAIN_STRIDES: Record<RollupGrain, string> = { quarter: "15 minutes", hour: "1 hour", day: "1 day" };

/**
 * CTEs after `span_changes`, then the upsert. Set-based: the changed spans' facts once, times the
 * grains; scalar sums grouped by key; the maps (histogram bins, usage kinds) exploded into
 * (key, kind, name, amount) rows, summed and folded back into one object per key.
 */
function rollupUpsert(): string {
  const d = spanDimensionsSql("c");
  const f = spanFactsSql("c");
  const grains = ROLLUP_GRAINS.map((g) => `('${g}', interval '${GRAIN_STRIDES[g]}')`).join(", ");
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
    rollup_grains as materialized (select f.*, gr.grain,
      date_bin(gr.stride, f.start_time, timestamptz '2000-01-01 00:00:00+00') as bucket
      from rollup_facts f cross join (values ${grains}) as gr(grain, stride)),
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

/**
 * One statement: `ctes` defines `span_changes` (the changed span rows, CHANGE_COLUMNS plus `sign`,
 * possibly after helper CTEs), and the roll-up is upserted from it. Without roll-ups (the ingest
 * benchmark's baseline) the change is made and counted.
 */
export function withRollups(ctes: string, rollups = true): string {
  return `with ${ctes}${rollups ? UPSERT : " select count(*) from span_changes"}`;
}
