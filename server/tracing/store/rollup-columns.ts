import type { Amounts } from "../metrics";
import type { SpanDimension } from "./span-facts";

/**
 * span_rollups' columns, written once: every statement that writes or reads the roll-ups (the
 * ingest worker's upsert, the erase of a user's rows, analytics' readers through
 * rollup-reads.ts) builds its column lists from these. `rollup-columns.test.ts` checks them
 * against the table's schema (server/db/schema), the other place the table is declared.
 * Each column comes with the array type the upsert passes it as (one array parameter per column).
 */

/** The primary key, in its order: project, grain, detail, bucket, root, trace type, the dimensions. */
export const ROLLUP_KEY_COLUMNS = [
  ["project_id", "uuid"],
  ["grain", "text"],
  ["detail", "int2"],
  ["bucket", "timestamptz"],
  ["root", "bool"],
  ["trace_type", "text"],
  ["agent", "text"],
  ["model", "text"],
  ["provider", "text"],
  ["environment", "text"],
  ["revision", "text"],
  ["api_key", "text"],
  ["user_id", "text"],
] as const;

/** The dimension columns of the key, by SPAN_DIMENSIONS name. */
export const ROLLUP_DIMENSION_COLUMNS = {
  agent: "agent",
  model: "model",
  provider: "provider",
  environment: "environment",
  revision: "revision",
  api_key: "api_key",
  user: "user_id",
} as const satisfies Record<SpanDimension, (typeof ROLLUP_KEY_COLUMNS)[number][0]>;

/** Sums added by plain addition (counts, and durations in milliseconds). */
export const ROLLUP_SCALAR_COLUMNS = [
  ["spans", "int8"],
  ["errors", "int8"],
  ["duration_ms", "float8"],
  ["ttft_count", "int8"],
  ["ttft_ms", "float8"],
] as const;

/**
 * `{key: sum}` maps, summed key by key: the histograms (latency, ttft), a span's own tokens and
 * costs, and a root's run totals (run_tokens, run_costs).
 */
export const ROLLUP_MAP_COLUMNS = [
  ["latency", "jsonb"],
  ["ttft", "jsonb"],
  ["tokens", "jsonb"],
  ["costs", "jsonb"],
  ["run_tokens", "jsonb"],
  ["run_costs", "jsonb"],
] as const;

export type RollupKeyColumn = (typeof ROLLUP_KEY_COLUMNS)[number][0];
export type RollupScalarColumn = (typeof ROLLUP_SCALAR_COLUMNS)[number][0];
export type RollupMapColumn = (typeof ROLLUP_MAP_COLUMNS)[number][0];

/** Maps of counts (exact as doubles), merged by the worker as doubles. */
export const ROLLUP_COUNT_MAPS = ["latency", "ttft", "tokens", "run_tokens"] as const satisfies RollupMapColumn[];
/** Maps of costs, numeric in the table: merged by the worker in decimal, exactly as numeric adds. */
export const ROLLUP_COST_MAPS = ["costs", "run_costs"] as const satisfies RollupMapColumn[];

/** Every column, in the order the upsert passes them. */
export const ROLLUP_COLUMNS = [...ROLLUP_KEY_COLUMNS, ...ROLLUP_SCALAR_COLUMNS, ...ROLLUP_MAP_COLUMNS] as const;

/** The names of the scalar sums. */
export const ROLLUP_SCALARS: readonly RollupScalarColumn[] = ROLLUP_SCALAR_COLUMNS.map(([c]) => c);
/** The names of the maps. */
export const ROLLUP_MAPS: readonly RollupMapColumn[] = ROLLUP_MAP_COLUMNS.map(([c]) => c);

/**
 * The grains roll-ups are kept at (UTC); a query reads the coarsest one its buckets align with.
 * Quarter hours, not minutes: every zone's offset is a multiple of 15 minutes, and a minute grain
 * would write about one roll-up row per span (minute buckets are computed from the spans).
 */
export const ROLLUP_GRAINS = ["quarter", "hour", "day"] as const;

/**
 * The `detail` of a roll-up row. A span naming a revision, an API key or a user is counted in a
 * `with` row (every dimension) and a `summed` row (those three '' and summed over), a span naming
 * none of them in one `none` row; a query reads `none` with the one its group and filter need
 * (`rollupDetails`), so a query by agent or model reads a few rows per bucket, not one per run.
 */
export const ROLLUP_DETAIL = { none: 0, with: 1, summed: 2 } as const;
/**
 * Narrow day rows: the `detail` of the day rows that keep one dimension (the others '') or none
 * (`total`), each counting every span once. A query by day that groups by at most that dimension
 * (and filters on it or the trace type only) reads a row per day and value, where the `none` and
 * `summed` rows are one per day and combination of agent, model, provider and environment
 * (42 a day in the benchmark against 3 for model). Day rows only: they serve the long windows,
 * and each adds a few keys to an ingest transaction; hours and quarters keep the wide keys.
 */
export const NARROW_DETAIL = {
  total: 3,
  agent: 4,
  model: 5,
  provider: 6,
  environment: 7,
  revision: 8,
  api_key: 9,
  user: 10,
} as const satisfies Record<SpanDimension | "total", number>;
/** The dimensions `summed` rows sum over: the last three of a row's dims. */
export const DETAIL_DIMENSIONS = ["revision", "api_key", "user"] as const;
export type RollupGrain = (typeof ROLLUP_GRAINS)[number];
export const GRAIN_MS: Record<RollupGrain, number> = { quarter: 15 * 60_000, hour: 3_600_000, day: 86_400_000 };

/** The sums a roll-up row keeps of its spans, which server/analytics adds up again per bucket and group. */
export interface SpanSums<M = Amounts> {
  spans: number;
  errors: number;
  durationMs: number;
  ttftCount: number;
  ttftMs: number;
  latency: M;
  ttft: M;
  tokens: M;
  costs: M;
}

/** A row of span_rollups as the delta hands it to the upsert (rollup-upsert.ts), typed from the columns above. */
export type TableRow = {
  project_id: string;
  grain: RollupGrain;
  detail: number;
  bucket: string;
  root: boolean;
} & Record<Exclude<RollupKeyColumn, "project_id" | "grain" | "detail" | "bucket" | "root">, string> &
  Record<RollupScalarColumn, number> &
  Record<(typeof ROLLUP_COUNT_MAPS)[number], Amounts> &
  /** Cost maps: JSON text once merged with a stored row's (mergedCosts). */
  Record<(typeof ROLLUP_COST_MAPS)[number], Amounts | string>;
