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

/** The grains roll-ups are kept at (UTC); a query reads the coarsest one its buckets align with. */
export const ROLLUP_GRAINS = ["minute", "hour", "day"] as const;
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

function rollupUpsert(): string {
  const d = spanDimensionsSql("c");
  const f = spanFactsSql("c");
  const facts = `select c.sign, c.project_id, c.start_time, ${f.root} as root, c.trace_type,
    ${d.agent} as agent, ${d.model} as model, ${d.provider} as provider, ${d.environment} as environment,
    ${d.revision} as revision, ${d.api_key} as api_key, ${d.user} as user_id,
    ${f.error} as error, ${f.durationMs} as duration_ms, ${f.latencyBin} as latency_bin,
    ${f.ttftMs} as ttft_ms, ${f.ttftBin} as ttft_bin,
    ${f.tokens} as tokens, ${f.costs} as costs, ${f.runTokens} as run_tokens, ${f.runCosts} as run_costs
    from span_changes c`;
  const grains = ROLLUP_GRAINS.map((g) => `('${g}')`).join(", ");
  const merge = (c: string) => `${c} = rollup_map_add(span_rollups.${c}, excluded.${c}, 1)`;
  const add = (c: string) => `${c} = span_rollups.${c} + excluded.${c}`;
  // Rows are upserted in key order, so two workers rolling up overlapping keys lock them in one order.
  return `insert into span_rollups (${KEY}, spans, errors, duration_ms, latency, ttft_count, ttft_ms, ttft, tokens, costs, run_tokens, run_costs)
  select f.project_id, g.grain, date_trunc(g.grain, f.start_time at time zone 'UTC') at time zone 'UTC',
    f.root, f.trace_type, f.agent, f.model, f.provider, f.environment, f.revision, f.api_key, f.user_id,
    sum(f.sign), sum(case when f.error then f.sign else 0 end), sum(f.sign * f.duration_ms),
    rollup_map_sum(jsonb_build_object(f.latency_bin::text, 1), f.sign),
    sum(case when f.ttft_ms is not null then f.sign else 0 end), coalesce(sum(f.sign * f.ttft_ms), 0),
    rollup_map_sum(case when f.ttft_bin is not null then jsonb_build_object(f.ttft_bin::text, 1) end, f.sign),
    rollup_map_sum(f.tokens, f.sign), rollup_map_sum(f.costs, f.sign),
    rollup_map_sum(f.run_tokens, f.sign), rollup_map_sum(f.run_costs, f.sign)
  from (${facts}) f cross join (values ${grains}) as g(grain)
  group by 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12
  order by 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12
  on conflict on constraint span_rollups_pkey do update set
    ${add("spans")}, ${add("errors")}, ${add("duration_ms")}, ${merge("latency")},
    ${add("ttft_count")}, ${add("ttft_ms")}, ${merge("ttft")},
    ${merge("tokens")}, ${merge("costs")}, ${merge("run_tokens")}, ${merge("run_costs")}`;
}

const UPSERT = rollupUpsert();

/**
 * One statement: `ctes` defines `span_changes` (the changed span rows, CHANGE_COLUMNS plus `sign`,
 * possibly after helper CTEs), and the roll-up is upserted from it.
 */
export function withRollups(ctes: string): string {
  return `with ${ctes} ${UPSERT}`;
}
