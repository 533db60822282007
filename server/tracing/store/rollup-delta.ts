import { storableString } from "@/server/core/storable-text";
import {
  GRAIN_MS,
  NARROW_DETAIL,
  ROLLUP_DETAIL,
  ROLLUP_GRAINS,
  type RollupGrain,
  type SpanSums,
  type TableRow,
} from "./rollup-columns";
import { add, addEntries, addFlat, flat, isEmpty, nonZero, UNSTORABLE, type Sums } from "./rollup-sums";
import { SPAN_DIMENSIONS, spanFacts, type FactSpan, type SpanDimension, type SpanFacts } from "./span-facts";

/**
 * The roll-up of spans into `span_rollups`, summed in this process and written once per ingest
 * transaction (under the projects' roll-up lock: a read of the rows it changes, then one upsert).
 * The ingest request sums its spans (+1 each) when it queues them, while it holds them parsed; the worker adds the queued sums of the rows it inserts straight from the
 * queue, and the changes writeSpans makes (-1 for a replaced span, -1 then +1 for a stored run
 * whose totals changed, +1 for a written span), then upserts the lot in the transaction that
 * writes the spans: a rolled-back batch leaves no trace in the roll-up, and a late span lands in
 * the bucket of its start time. The hour and day rows, the rows summed over revision, API key
 * and user (ROLLUP_DETAIL) and the narrow day rows (NARROW_DETAIL) are derived from the quarter
 * rows when the worker upserts.
 * server/analytics reads the table. This file sums; rollup-upsert.ts writes.
 */

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

const SEP = "\u0001";
const NO_DIMS = SPAN_DIMENSIONS.map(() => "");
/** Each narrow detail with the index in `dims` of the dimension it keeps (-1: none). */
const NARROW_FAMILIES: [number, number][] = Object.entries(NARROW_DETAIL).map(([name, detail]) => [
  SPAN_DIMENSIONS.indexOf(name as SpanDimension),
  detail,
]);
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
    // The narrow day rows (NARROW_DETAIL) from the day rows just summed that count each span once
    // (`none` and `with`): fewer than the quarter rows they come from.
    const days = [...all.rows.values()].filter((r) => r.grain === "day" && r.detail !== ROLLUP_DETAIL.summed);
    for (const d of days) {
      for (const [i, detail] of NARROW_FAMILIES) {
        const dims = NO_DIMS.map((none, j) => (j === i ? d.dims[j] : none));
        all.addRow(all.rowOf(d.projectId, "day", detail, d.bucketMs, d.root, d.traceType, dims, dims.join(SEP)), d);
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
