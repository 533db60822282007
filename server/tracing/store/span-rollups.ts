import Big from "big.js";
import { storableString } from "@/server/core/storable-text";
import { rawQuery, type Executor } from "@/server/db";
import { isObject } from "../attributes";
import { pgArray } from "../query/sql-params";
import type { Amounts } from "../metrics";
import { spanFacts, type FactSpan, type SpanFacts } from "./span-facts";

/**
 * The roll-up of spans into `span_rollups`, summed in this process and written once per ingest
 * transaction (under the projects' roll-up lock: a read of the rows it changes, then one upsert). The ingest request sums its spans (+1 each) when it queues them, while
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

/**
 * Amounts by key while they are summed here: a Map, not an object, so any key (even
 * "constructor" or "__proto__") is only a key, and summing stays fast (objects with keys added
 * one by one turn into slow dictionaries).
 */
type Sums = Map<string, number>;

/** The key and sums of one roll-up row; a root's tokens and costs are also kept as its run's. */
interface Row extends SpanSums<Sums> {
  projectId: string;
  grain: RollupGrain;
  /** ROLLUP_DETAIL; quarter rows as a request queues them are `none` or `with` by their dims. */
  detail: number;
  bucketMs: number;
  root: boolean;
  traceType: string;
  /** agent, model, provider, environment, revision, api_key, user */
  dims: string[];
  runTokens: Sums;
  runCosts: Sums;
}

const MAPS = ["latency", "ttft", "tokens", "costs", "runTokens", "runCosts"] as const;

const add = (m: Sums, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);
/** Adds the numeric entries of a span's map (a JSON object, or anything else: nothing). */
const addEntries = (m: Sums, from: unknown, sign: number) => {
  if (!isObject(from)) return;
  for (const k in from) {
    const v = from[k];
    if (typeof v !== "number") continue;
    // A key already there is storable; only a new one is tested.
    const sum = m.get(k);
    if (sum !== undefined) m.set(k, sum + sign * v);
    else add(m, storable(k), sign * v);
  }
};
/** Adds the sums toJson wrote of a map: keys and values alternating. */
const addFlat = (m: Sums, flat: unknown[]) => {
  for (let i = 0; i < flat.length; i += 2) add(m, flat[i] as string, flat[i + 1] as number);
};
const flat = (m: Sums) => {
  const out: (string | number)[] = [];
  for (const [k, v] of m) out.push(k, v);
  return out;
};
/** The non-zero sums as a JSON object ("__proto__" too is defined as a key, not assigned). */
const nonZero = (m: Sums): Amounts => {
  const out: Amounts = {};
  for (const [k, v] of m) {
    if (v === 0) continue;
    if (k === "__proto__")
      Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
    else out[k] = v;
  }
  return out;
};
const isEmpty = (m: Amounts) => {
  for (const _ in m) return false;
  return true;
};
// NUL and lone surrogates, which storableJson takes out of the stored span: rare, so tested first.
const UNSTORABLE = /[\0\ud800-\udfff]/;
const storable = (s: string) => (UNSTORABLE.test(s) ? storableString(s) : s);
const SEP = "\u0001";
const detailOf = (dims: string[]) =>
  dims[4] !== "" || dims[5] !== "" || dims[6] !== "" ? ROLLUP_DETAIL.with : ROLLUP_DETAIL.none;

/**
 * Roll-up sums per row key, of spans added (+1) and taken out (-1), kept at the quarter-hour
 * grain (what a request queues); the hour and day rows are summed from them when the worker
 * upserts. Amounts are summed as doubles here (counts also in the table, costs there as numeric);
 * analytics rounds costs to 12 decimals and leaves out what rounds to nothing, so a sum and its
 * scan agree on the wire.
 */
export class RollupDelta {
  private readonly rows = new Map<string, Row>();
  /** A short number per project, for row keys. */
  private readonly projects = new Map<string, number>();

  get size(): number {
    return this.rows.size;
  }

  /** Adds a span (sign +1) or takes it out (-1). */
  addSpan(projectId: string, span: FactSpan, sign: 1 | -1): void {
    this.addFacts(projectId, spanFacts(span), sign);
  }

  /** Adds a span's facts, read before the span changed (a stored run whose totals the roll-up rewrites). */
  addFacts(projectId: string, f: SpanFacts, sign: 1 | -1): void {
    const startMs = Math.floor(f.startMicros / 1000);
    const ms = GRAIN_MS.quarter;
    const bucketMs = startMs - (((startMs % ms) + ms) % ms);
    // The strings the stored span will hold (storableJson), so the key matches the scan's.
    let dimsKey = f.dims.join(SEP);
    let dims = f.dims;
    if (UNSTORABLE.test(dimsKey)) {
      dims = dims.map(storableString);
      dimsKey = dims.join(SEP);
    }
    const s = this.rowOf(projectId, "quarter", detailOf(dims), bucketMs, f.root, f.traceType, dims, dimsKey);
    s.spans += sign;
    if (f.error) s.errors += sign;
    s.durationMs += sign * f.durationMs;
    add(s.latency, String(f.latencyBin), sign);
    if (f.ttftMs !== null) {
      s.ttftCount += sign;
      s.ttftMs += sign * f.ttftMs;
      add(s.ttft, String(f.ttftBin), sign);
    }
    addEntries(s.tokens, f.tokens, sign);
    addEntries(s.costs, f.costs, sign);
    addEntries(s.runTokens, f.runTokens, sign);
    addEntries(s.runCosts, f.runCosts, sign);
  }

  /**
   * JSON of the rows as a queued ingest row keeps them (whose project is the queue row's): one
   * array per row, in the order mergeJson reads, each map as its keys and values alternating.
   */
  toJson(): string {
    const out: unknown[] = [];
    for (const r of this.rows.values()) {
      out.push([
        r.bucketMs,
        r.root,
        r.traceType,
        r.dims,
        r.spans,
        r.errors,
        r.durationMs,
        r.ttftCount,
        r.ttftMs,
        flat(r.latency),
        flat(r.ttft),
        flat(r.tokens),
        flat(r.costs),
        flat(r.runTokens),
        flat(r.runCosts),
      ]);
    }
    return JSON.stringify(out);
  }

  /** Adds the rows toJson wrote (a queued ingest row's, of project `projectId`). */
  mergeJson(projectId: string, text: string): void {
    for (const a of JSON.parse(text) as unknown[][]) {
      const dims = a[3] as string[];
      const detail = detailOf(dims);
      const s = this.rowOf(
        projectId,
        "quarter",
        detail,
        a[0] as number,
        a[1] as boolean,
        a[2] as string,
        dims,
        dims.join(SEP),
      );
      s.spans += a[4] as number;
      s.errors += a[5] as number;
      s.durationMs += a[6] as number;
      s.ttftCount += a[7] as number;
      s.ttftMs += a[8] as number;
      addFlat(s.latency, a[9] as unknown[]);
      addFlat(s.ttft, a[10] as unknown[]);
      addFlat(s.tokens, a[11] as unknown[]);
      addFlat(s.costs, a[12] as unknown[]);
      addFlat(s.runTokens, a[13] as unknown[]);
      addFlat(s.runCosts, a[14] as unknown[]);
    }
  }

  /** span_rollups rows at every grain and detail, as the upsert writes them; rows that sum to nothing are left out. */
  tableRows(): TableRow[] {
    const all = new RollupDelta();
    for (const q of this.rows.values()) {
      const summed = q.detail === ROLLUP_DETAIL.with ? [...q.dims.slice(0, 4), "", "", ""] : undefined;
      const dimsKey = q.dims.join(SEP);
      const summedKey = summed?.join(SEP);
      for (const grain of ROLLUP_GRAINS) {
        const ms = GRAIN_MS[grain];
        const bucketMs = q.bucketMs - (((q.bucketMs % ms) + ms) % ms);
        all.addRow(all.rowOf(q.projectId, grain, q.detail, bucketMs, q.root, q.traceType, q.dims, dimsKey), q);
        if (summed)
          all.addRow(
            all.rowOf(q.projectId, grain, ROLLUP_DETAIL.summed, bucketMs, q.root, q.traceType, summed, summedKey!),
            q,
          );
      }
    }
    const out: TableRow[] = [];
    for (const s of all.rows.values()) {
      const [latency, ttft, tokens, costs, runTokens, runCosts] = MAPS.map((name) => nonZero(s[name]));
      const empty = [latency, ttft, tokens, costs, runTokens, runCosts].every(isEmpty);
      if (empty && !s.spans && !s.errors && !s.ttftCount && !s.durationMs) continue;
      const [agent, model, provider, environment, revision, apiKey, user] = s.dims;
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
        latency,
        ttft,
        tokens,
        costs,
        run_tokens: runTokens,
        run_costs: runCosts,
      });
    }
    return out;
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
    dimsKey: string,
  ): Row {
    let project = this.projects.get(projectId);
    if (project === undefined) this.projects.set(projectId, (project = this.projects.size));
    const id = `${project}${grain[0]}${detail}${root ? 1 : 0}${bucketMs}${SEP}${traceType}${SEP}${dimsKey}`;
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
        latency: new Map(),
        ttft: new Map(),
        tokens: new Map(),
        costs: new Map(),
        runTokens: new Map(),
        runCosts: new Map(),
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
    for (const name of MAPS) for (const [k, v] of o[name]) add(s[name], k, v);
  }
}

/** A row of span_rollups as the statements below pass it. */
export interface TableRow {
  project_id: string;
  grain: RollupGrain;
  detail: number;
  bucket: string;
  root: boolean;
  trace_type: string;
  agent: string;
  model: string;
  provider: string;
  environment: string;
  revision: string;
  api_key: string;
  user_id: string;
  spans: number;
  errors: number;
  duration_ms: number;
  ttft_count: number;
  ttft_ms: number;
  latency: Amounts;
  ttft: Amounts;
  tokens: Amounts;
  /** JSON text once merged with a stored row's (mergedCosts). */
  costs: Amounts | string;
  run_tokens: Amounts;
  run_costs: Amounts | string;
}

/** Maps of counts (exact as doubles), merged here as doubles. */
const COUNT_MAPS = ["latency", "ttft", "tokens", "run_tokens"] as const;
/** Maps of costs, numeric in the table: merged here in decimal, exactly as numeric adds. */
const COST_MAPS = ["costs", "run_costs"] as const;

/** span_rollups' columns as the statements below pass them, one array parameter each. */
const COLUMNS = [
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
  ["spans", "int8"],
  ["errors", "int8"],
  ["duration_ms", "float8"],
  ["ttft_count", "int8"],
  ["ttft_ms", "float8"],
  ["latency", "jsonb"],
  ["ttft", "jsonb"],
  ["tokens", "jsonb"],
  ["costs", "jsonb"],
  ["run_tokens", "jsonb"],
  ["run_costs", "jsonb"],
] as const satisfies readonly (readonly [keyof TableRow, string])[];
const KEY_COLUMNS = COLUMNS.slice(0, 13);
const VALUE_COLUMNS = COLUMNS.slice(13);
const KEY = KEY_COLUMNS.map(([c]) => c).join(", ");
const ALL = COLUMNS.map(([c]) => c).join(", ");
/** unnest of one array per column: PostgreSQL reads arrays far faster than one JSON document of rows. */
const unnest = (columns: readonly (readonly [string, string])[]) =>
  `unnest(${columns.map(([, type], i) => `$${i + 1}::text::${type}[]`).join(", ")})`;

/** Advisory lock class (two-key form, apart from the one-key locks) of a project's roll-up rows. */
const ROLLUP_LOCK = 7_241_003;
const LOCK = `select count(pg_advisory_xact_lock(${ROLLUP_LOCK}, h))
  from (select distinct hashtext(p) as h from unnest($1::text[]) as p order by h) l`;

/**
 * The maps of the rows that exist, by the (1-based) index of the row that names them; cost maps
 * as text, whose numbers keep every digit (JSON.parse would round them to doubles).
 */
const READ = `select r.i::int as i, s.${COUNT_MAPS.join(", s.")}, ${COST_MAPS.map((c) => `s.${c}::text as ${c}`).join(", ")}
  from ${unnest(KEY_COLUMNS)} with ordinality as r(${KEY}, i) join span_rollups s using (${KEY})`;

const sum = (c: string) => `${c} = span_rollups.${c} + excluded.${c}`;

const UPSERT = `insert into span_rollups (${ALL}) select * from ${unnest(COLUMNS)}
  on conflict on constraint span_rollups_pkey do update set
    ${sum("spans")}, ${sum("errors")}, ${sum("duration_ms")}, ${sum("ttft_count")}, ${sum("ttft_ms")},
    ${[...COUNT_MAPS, ...COST_MAPS].map((c) => `${c} = excluded.${c}`).join(", ")}`;

/** One array parameter per column of `columns`, of `rows`. */
const columnArrays = (rows: TableRow[], columns: readonly (readonly [keyof TableRow, string])[]) =>
  columns.map(([c]) => pgArray(rows.map((r) => r[c])));

/**
 * Takes the transaction-scoped lock of each project's roll-up rows, in one sorted order (no two
 * writers deadlock). Every writer of span_rollups holds it: the upsert below reads rows, merges
 * them here and writes them back, which is only right while no one else changes them.
 */
export async function lockRollups(tx: Executor, projectIds: string[]): Promise<void> {
  if (projectIds.length > 0) await rawQuery(tx, LOCK, [`{${[...new Set(projectIds)].join(",")}}`]);
}

/**
 * Adds the delta to span_rollups inside the caller's transaction: under the projects' lock, reads
 * the maps of the rows that exist and writes them merged, with the scalars added in the upsert.
 * Merging here, not with rollup_map_add on conflict, keeps the roll-up's cost to ingest small (a
 * call costs about 15 µs a map). Costs stay numeric sums, exact in the table, where doubles would
 * drift over many merges: they are added here in decimal (mergedCosts).
 */
export async function upsertRollups(tx: Executor, delta: RollupDelta): Promise<void> {
  const rows = delta.tableRows();
  if (rows.length === 0) return;
  await lockRollups(
    tx,
    rows.map((r) => r.project_id),
  );
  const keys = columnArrays(rows, KEY_COLUMNS);
  const stored = await rawQuery<
    { i: number } & Record<(typeof COUNT_MAPS)[number], Amounts> & Record<(typeof COST_MAPS)[number], string>
  >(tx, READ, keys);
  for (const s of stored) {
    const row = rows[s.i - 1];
    for (const name of COUNT_MAPS) row[name] = mergedCounts(s[name], row[name]);
    for (const name of COST_MAPS) {
      const delta = row[name] as Amounts;
      row[name] = isEmpty(delta) ? s[name] : mergedCosts(s[name], delta);
    }
  }
  await rawQuery(tx, UPSERT, [...keys, ...columnArrays(rows, VALUE_COLUMNS)]);
}

/** The non-zero sums of a stored map of counts and a delta's. */
function mergedCounts(stored: Amounts, delta: Amounts): Amounts {
  const sums: Sums = new Map(Object.entries(stored));
  for (const [k, v] of Object.entries(delta)) add(sums, k, v);
  return nonZero(sums);
}

/** One entry of jsonb's text form of a map: the key (JSON-escaped) and its value (numeric_out's digits, or null). */
const STORED_ENTRY = /"((?:[^"\\]|\\.)*)": ([^,}]*)/g;

/**
 * The non-zero sums of a stored cost map (jsonb's text) and a delta's, as JSON text: added as
 * decimals (big.js), so the sum is numeric's, digit for digit. Like rollup_map_add, values that
 * are not numbers (a non-finite sum, written as null) are left out.
 */
export function mergedCosts(stored: string, delta: Amounts): string {
  const sums = new Map<string, Big>();
  for (const [, key, value] of stored.matchAll(STORED_ENTRY))
    if (value !== "null") sums.set(JSON.parse(`"${key}"`) as string, new Big(value));
  for (const [k, v] of Object.entries(delta)) {
    if (!Number.isFinite(v)) continue;
    const sum = sums.get(k);
    sums.set(k, sum === undefined ? new Big(v) : sum.plus(v));
  }
  const entries: string[] = [];
  for (const [k, v] of sums) if (!v.eq(0)) entries.push(`${JSON.stringify(k)}:${v.toString()}`);
  return `{${entries.join(",")}}`;
}
