import { storableString } from "@/server/core/storable-text";
import { rawQuery, type Executor } from "@/server/db";
import type { Amounts } from "../metrics";
import { spanFacts, type FactSpan, type SpanFacts } from "./span-facts";

/**
 * The roll-up of spans into `span_rollups`, summed in this process and written with one upsert
 * per ingest transaction. The ingest request sums its spans (+1 each) when it queues them, while
 * it holds them parsed; the worker adds the queued sums of the rows it inserts straight from the
 * queue, and the changes writeSpans makes (-1 for a replaced span, -1 then +1 for a stored run
 * whose totals changed, +1 for a written span), then upserts the lot in the transaction that
 * writes the spans: a rolled-back batch leaves no trace in the roll-up, and a late span lands in
 * the bucket of its start time. The hour and day rows, and the rows summed over revision, API key
 * and user (ROLLUP_DETAIL), are derived from the quarter rows when the worker upserts.
 * server/analytics reads the table.
 */

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
/** The dimensions `summed` rows sum over: the last three of a row's dims. */
export const DETAIL_DIMENSIONS = ["revision", "api_key", "user"] as const;
export type RollupGrain = (typeof ROLLUP_GRAINS)[number];
const GRAIN_MS: Record<RollupGrain, number> = { quarter: 15 * 60_000, hour: 3_600_000, day: 86_400_000 };

/** The sums a roll-up row keeps of its spans, which server/analytics adds up again per bucket and group. */
export interface SpanSums {
  spans: number;
  errors: number;
  durationMs: number;
  ttftCount: number;
  ttftMs: number;
  latency: Amounts;
  ttft: Amounts;
  tokens: Amounts;
  costs: Amounts;
}

/** The key and sums of one roll-up row; a root's tokens and costs are also kept as its run's. */
interface Row extends SpanSums {
  projectId: string;
  grain: RollupGrain;
  /** ROLLUP_DETAIL; quarter rows as a request queues them are `none` or `with` by their dims. */
  detail: number;
  bucketMs: number;
  root: boolean;
  traceType: string;
  /** agent, model, provider, environment, revision, api_key, user */
  dims: string[];
  runTokens: Amounts;
  runCosts: Amounts;
}

const MAPS = ["latency", "ttft", "tokens", "costs", "runTokens", "runCosts"] as const;

const add = (m: Amounts, k: string, v: number) => {
  m[k] = (m[k] ?? 0) + v;
};
// NUL and lone surrogates, which storableJson takes out of the stored span: rare, so tested first.
const UNSTORABLE = /[\0\ud800-\udfff]/;
const storable = (s: string) => (UNSTORABLE.test(s) ? storableString(s) : s);
const storableDims = (dims: string[]) => (UNSTORABLE.test(dims.join("")) ? dims.map(storableString) : dims);
const SEP = "\u0001";
const rowId = (
  projectId: string,
  grain: RollupGrain,
  detail: number,
  bucketMs: number,
  root: boolean,
  traceType: string,
  dims: string[],
) =>
  `${projectId}${SEP}${grain}${SEP}${detail}${SEP}${bucketMs}${SEP}${root ? 1 : 0}${SEP}${traceType}${SEP}${dims.join(SEP)}`;
const detailOf = (dims: string[]) =>
  dims[4] !== "" || dims[5] !== "" || dims[6] !== "" ? ROLLUP_DETAIL.with : ROLLUP_DETAIL.none;

/**
 * Roll-up sums per row key, of spans added (+1) and taken out (-1), kept at the quarter-hour
 * grain (what a request queues); the hour and day rows are summed from them when the worker
 * upserts. Amounts are summed as doubles here and as numeric in the table; analytics rounds
 * costs to 12 decimals and leaves out what rounds to nothing, so a sum and its scan agree on the wire.
 */
export class RollupDelta {
  private readonly rows = new Map<string, Row>();

  get size(): number {
    return this.rows.size;
  }

  /** Adds a span (sign +1) or takes it out (-1). */
  addSpan(projectId: string, span: FactSpan, sign: 1 | -1): void {
    this.addFacts(projectId, spanFacts(span), sign);
  }

  /** Adds a span's facts, read before the span changed (a stored run whose totals the roll-up rewrites). */
  addFacts(projectId: string, f: SpanFacts, sign: 1 | -1): void {
    const d = f.dimensions;
    const startMs = Math.floor(f.startMicros / 1000);
    const ms = GRAIN_MS.quarter;
    // The strings the stored span will hold (storableJson), so the key matches the scan's.
    const dims = storableDims([d.agent, d.model, d.provider, d.environment, d.revision, d.api_key, d.user]);
    const bucketMs = startMs - (((startMs % ms) + ms) % ms);
    const s = this.rowOf(projectId, "quarter", detailOf(dims), bucketMs, f.root, f.traceType, dims);
    s.spans += sign;
    if (f.error) s.errors += sign;
    s.durationMs += sign * f.durationMs;
    add(s.latency, String(f.latencyBin), sign);
    if (f.ttftMs !== null) {
      s.ttftCount += sign;
      s.ttftMs += sign * f.ttftMs;
      add(s.ttft, String(f.ttftBin), sign);
    }
    for (const [k, v] of f.tokens) add(s.tokens, storable(k), sign * v);
    for (const [k, v] of f.costs) add(s.costs, storable(k), sign * v);
    for (const [k, v] of f.runTokens) add(s.runTokens, storable(k), sign * v);
    for (const [k, v] of f.runCosts) add(s.runCosts, storable(k), sign * v);
  }

  /** Adds another delta's rows (the queued sums of an ingest row). */
  merge(other: RollupDelta): void {
    for (const o of other.rows.values())
      this.addRow(this.rowOf(o.projectId, o.grain, o.detail, o.bucketMs, o.root, o.traceType, o.dims), o);
  }

  /** JSON of the rows as the queue keeps them: one array per row, in ROW_FIELDS order. */
  toJson(): string {
    const out: unknown[] = [];
    for (const r of this.rows.values()) {
      out.push([
        r.projectId,
        r.bucketMs,
        r.root,
        r.traceType,
        r.dims,
        r.spans,
        r.errors,
        r.durationMs,
        r.ttftCount,
        r.ttftMs,
        r.latency,
        r.ttft,
        r.tokens,
        r.costs,
        r.runTokens,
        r.runCosts,
      ]);
    }
    return JSON.stringify(out);
  }

  /** The delta toJson wrote (a queued ingest row's). */
  static fromJson(text: string): RollupDelta {
    const delta = new RollupDelta();
    for (const a of JSON.parse(text) as unknown[][]) {
      const row: Row = {
        projectId: a[0] as string,
        grain: "quarter",
        detail: detailOf(a[4] as string[]),
        bucketMs: a[1] as number,
        root: a[2] as boolean,
        traceType: a[3] as string,
        dims: a[4] as string[],
        spans: a[5] as number,
        errors: a[6] as number,
        durationMs: a[7] as number,
        ttftCount: a[8] as number,
        ttftMs: a[9] as number,
        latency: a[10] as Amounts,
        ttft: a[11] as Amounts,
        tokens: a[12] as Amounts,
        costs: a[13] as Amounts,
        runTokens: a[14] as Amounts,
        runCosts: a[15] as Amounts,
      };
      delta.rows.set(rowId(row.projectId, row.grain, row.detail, row.bucketMs, row.root, row.traceType, row.dims), row);
    }
    return delta;
  }

  /** span_rollups rows at every grain and detail, as JSON for the upsert; rows that sum to nothing are left out. */
  tableJson(): string {
    const all = new RollupDelta();
    for (const q of this.rows.values()) {
      const summed = q.detail === ROLLUP_DETAIL.with ? [...q.dims.slice(0, 4), "", "", ""] : undefined;
      for (const grain of ROLLUP_GRAINS) {
        const ms = GRAIN_MS[grain];
        const bucketMs = q.bucketMs - (((q.bucketMs % ms) + ms) % ms);
        all.addRow(all.rowOf(q.projectId, grain, q.detail, bucketMs, q.root, q.traceType, q.dims), q);
        if (summed)
          all.addRow(all.rowOf(q.projectId, grain, ROLLUP_DETAIL.summed, bucketMs, q.root, q.traceType, summed), q);
      }
    }
    const out: unknown[] = [];
    for (const s of all.rows.values()) {
      const maps = MAPS.map((name) => nonZero(s[name]));
      if (maps.every((m) => m === undefined) && !s.spans && !s.errors && !s.ttftCount && !s.durationMs) continue;
      const [agent, model, provider, environment, revision, apiKey, user] = s.dims;
      const [latency, ttft, tokens, costs, runTokens, runCosts] = maps;
      out.push({
        project_id: s.projectId,
        grain: s.grain,
        detail: s.detail,
        bucket: new Date(s.bucketMs).toISOString(),
        root: s.root,
        trace_type: s.traceType,
        agent,
        model,
        provider,
        environment,
        revision,
        api_key: apiKey,
        user_id: user,
        spans: s.spans,
        errors: s.errors,
        duration_ms: s.durationMs,
        ttft_count: s.ttftCount,
        ttft_ms: s.ttftMs,
        latency: latency ?? {},
        ttft: ttft ?? {},
        tokens: tokens ?? {},
        costs: costs ?? {},
        run_tokens: runTokens ?? {},
        run_costs: runCosts ?? {},
      });
    }
    return JSON.stringify(out);
  }

  /** The row of a key, made on first use; one object shape for every row (its fields in one order). */
  private rowOf(
    projectId: string,
    grain: RollupGrain,
    detail: number,
    bucketMs: number,
    root: boolean,
    traceType: string,
    dims: string[],
  ): Row {
    const id = rowId(projectId, grain, detail, bucketMs, root, traceType, dims);
    let row = this.rows.get(id);
    if (row === undefined) {
      row = {
        projectId,
        grain,
        detail,
        bucketMs,
        root,
        traceType,
        dims,
        spans: 0,
        errors: 0,
        durationMs: 0,
        ttftCount: 0,
        ttftMs: 0,
        latency: {},
        ttft: {},
        tokens: {},
        costs: {},
        runTokens: {},
        runCosts: {},
      };
      this.rows.set(id, row);
    }
    return row;
  }

  /** Adds row `o`'s sums to row `s`. */
  private addRow(s: Row, o: Row): void {
    s.spans += o.spans;
    s.errors += o.errors;
    s.durationMs += o.durationMs;
    s.ttftCount += o.ttftCount;
    s.ttftMs += o.ttftMs;
    for (const name of MAPS) for (const k in o[name]) add(s[name], k, o[name][k]);
  }
}

/** The non-zero amounts, or undefined when none is. */
function nonZero(map: Amounts): Amounts | undefined {
  let out: Amounts | undefined;
  for (const k in map) if (map[k] !== 0) (out ??= {})[k] = map[k];
  return out;
}

const KEY =
  "project_id, grain, detail, bucket, root, trace_type, agent, model, provider, environment, revision, api_key, user_id";
const sum = (c: string) => `${c} = span_rollups.${c} + excluded.${c}`;
// Most rows leave most maps empty (a root has no own tokens, a tool call no costs): no call then.
const merge = (c: string) =>
  `${c} = case when excluded.${c} = '{}'::jsonb then span_rollups.${c} else rollup_map_add(span_rollups.${c}, excluded.${c}, 1) end`;

// Rows in key order, so two workers upserting overlapping keys lock them in the same order and
// cannot deadlock.
const UPSERT = `insert into span_rollups (${KEY}, spans, errors, duration_ms, latency, ttft_count, ttft_ms, ttft, tokens, costs, run_tokens, run_costs)
  select ${KEY}, spans, errors, duration_ms, latency, ttft_count, ttft_ms, ttft, tokens, costs, run_tokens, run_costs
  from jsonb_to_recordset($1::text::jsonb) as r(project_id uuid, grain text, detail smallint, bucket timestamptz, root boolean, trace_type text,
    agent text, model text, provider text, environment text, revision text, api_key text, user_id text,
    spans bigint, errors bigint, duration_ms float8, latency jsonb, ttft_count bigint, ttft_ms float8, ttft jsonb,
    tokens jsonb, costs jsonb, run_tokens jsonb, run_costs jsonb)
  order by ${KEY}
  on conflict on constraint span_rollups_pkey do update set
    ${sum("spans")}, ${sum("errors")}, ${sum("duration_ms")}, ${merge("latency")},
    ${sum("ttft_count")}, ${sum("ttft_ms")}, ${merge("ttft")},
    ${merge("tokens")}, ${merge("costs")}, ${merge("run_tokens")}, ${merge("run_costs")}`;

/** Adds the delta to span_rollups, in one statement, inside the caller's transaction. */
export async function upsertRollups(tx: Executor, delta: RollupDelta): Promise<void> {
  if (delta.size === 0) return;
  const json = delta.tableJson();
  if (json !== "[]") await rawQuery(tx, UPSERT, [json]);
}
