import { isObject, type JsonObject } from "../attributes";
import { parseTimestamp } from "../timestamps";

/**
 * What analytics counts of one span, twice: as SQL over a row of `spans` (the scan in
 * server/analytics, and the benchmark's seeding) and as JavaScript over a span record (the
 * roll-up the ingest worker writes, rollup-delta.ts). The two must agree exactly: tests compare
 * the roll-up's answer with the scan's on every case they check, so a change here changes both.
 */

/** Histogram bins grow by 2% (a relative error of at most 1% for a percentile read from them). */
export const LATENCY_GAMMA = 1.02;
/** Durations below this many milliseconds share the lowest bin. */
const MIN_MS = 0.001;
const LN_GAMMA = Math.log(LATENCY_GAMMA);

export const SPAN_DIMENSIONS = ["agent", "model", "provider", "environment", "revision", "api_key", "user"] as const;
export type SpanDimension = (typeof SPAN_DIMENSIONS)[number];

/** The histogram bin of a value in milliseconds, in SQL. */
export function binSql(ms: string): string {
  return `ceil(ln(greatest(${ms}, ${MIN_MS})) / ${LN_GAMMA})::int`;
}

/** The histogram bin of a value in milliseconds (binSql in JavaScript). */
export function binOf(ms: number): number {
  return Math.ceil(Math.log(Math.max(ms, MIN_MS)) / LN_GAMMA);
}

/** A bin's representative value (the midpoint of its range in relative terms). */
export function binValue(bin: number): number {
  return (2 * LATENCY_GAMMA ** bin) / (LATENCY_GAMMA + 1);
}

const num = (alias: string, path: string) =>
  `case when jsonb_typeof(${alias}.attributes #> '{${path}}') = 'number' then (${alias}.attributes #>> '{${path}}')::float8 end`;
const ref = (alias: string, key: string, field: string) =>
  `jsonb_path_query_first(${alias}."references", '$[*] ? (@.attributes.key == "${key}").${field}') #>> '{}'`;

/** The dimensions analytics groups by, as SQL over a row of `spans`; '' when absent. */
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

/** The columns of a span the facts read. Times are ISO 8601 (or PostgreSQL's text form), to the microsecond. */
export interface FactSpan {
  parent_id: string | null;
  trace_type: string;
  start_time: string;
  end_time: string;
  status_code: string;
  user_id: string | null;
  agent_id: string | null;
  attributes: JsonObject;
  references: unknown;
}

export interface SpanFacts {
  /** In SPAN_DIMENSIONS order. */
  dims: string[];
  root: boolean;
  traceType: string;
  startMicros: number;
  error: boolean;
  durationMs: number;
  latencyBin: number;
  ttftMs: number | null;
  ttftBin: number | null;
  /**
   * The span's own maps (only their numeric entries count), not copies: a caller keeping facts
   * across a change of the span copies them first. A run's totals (`runTokens`, `runCosts`) only on a root.
   */
  tokens: unknown;
  costs: unknown;
  runTokens: unknown;
  runCosts: unknown;
}

// Paths as constants: this runs for every span ingested.
const MS_TO_FIRST_CHUNK = ["ai", "response", "msToFirstChunk"];
const SERVER_TTFT = ["gen_ai", "server", "time_to_first_token"];
const REQUEST_MODEL = ["request", "model"];
const RESPONSE_MODEL = ["response", "model"];
const SYSTEM = ["system"];
const API_KEY = ["api_key", "id"];
const ERRORS = ["errors", "incremental"];
const INCREMENTAL = "incremental";
const CUMULATIVE = "cumulative";

/** spanDimensionsSql and spanFactsSql of one span, in JavaScript. */
export function spanFacts(span: FactSpan): SpanFacts {
  const a = span.attributes;
  const start = micros(span.start_time) ?? 0;
  const end = micros(span.end_time) ?? start;
  const durationMs = Math.max((end - start) / 1000, 0);
  const chunk = numberAt(a, MS_TO_FIRST_CHUNK);
  const serverTtft = chunk === null ? numberAt(a, SERVER_TTFT) : null;
  const ttftMs = chunk ?? (serverTtft === null ? null : 1000 * serverTtft);
  const root = span.parent_id === null;
  const ag = isObject(a.ag) ? a.ag : undefined;
  // The ag.meta paths, read from meta once.
  const meta = ag?.meta;
  const metrics = ag?.metrics;
  const tokens = isObject(metrics) ? metrics.tokens : undefined;
  const costs = isObject(metrics) ? metrics.costs : undefined;
  const refs = span.references;
  return {
    dims: [
      span.agent_id ?? refText(refs, "workflow", "id") ?? "",
      textAt(meta, REQUEST_MODEL) ?? textAt(meta, RESPONSE_MODEL) ?? "",
      textAt(meta, SYSTEM) ?? "",
      refText(refs, "environment", "slug") ?? refText(refs, "environment", "id") ?? "",
      refText(refs, "workflow_revision", "id") ?? "",
      textAt(meta, API_KEY) ?? "",
      span.user_id ?? "",
    ],
    root,
    traceType: span.trace_type,
    startMicros: start,
    error: span.status_code === "STATUS_CODE_ERROR" || (numberAt(metrics, ERRORS) ?? 0) > 0,
    durationMs,
    latencyBin: binOf(durationMs),
    ttftMs,
    ttftBin: ttftMs === null ? null : binOf(ttftMs),
    tokens: isObject(tokens) ? tokens[INCREMENTAL] : undefined,
    costs: isObject(costs) ? costs[INCREMENTAL] : undefined,
    runTokens: root && isObject(tokens) ? tokens[CUMULATIVE] : undefined,
    runCosts: root && isObject(costs) ? costs[CUMULATIVE] : undefined,
  };
}

/** A span time in microseconds: a span record's normalised form read digit by digit, else parseTimestamp. */
function micros(text: string): number | undefined {
  if (text.length === 27 && text[10] === "T" && text[19] === "." && text[26] === "Z") {
    const ms = dayMs(text) + ((digits(text, 11, 13) * 60 + digits(text, 14, 16)) * 60 + digits(text, 17, 19)) * 1000;
    const us = digits(text, 20, 26);
    if (Number.isFinite(ms) && Number.isFinite(us)) return ms * 1000 + us;
  }
  return parseTimestamp(text);
}

// The spans of a request mostly start on one day: its start is computed once.
let lastDay = { text: "", ms: NaN };

/** Milliseconds at the start of the day `YYYY-MM-DD` that begins text (NaN unless it is one). */
function dayMs(text: string): number {
  if (lastDay.text === "" || !text.startsWith(lastDay.text)) {
    const ms = Date.UTC(digits(text, 0, 4), digits(text, 5, 7) - 1, digits(text, 8, 10));
    lastDay = { text: text.slice(0, 10), ms };
  }
  return lastDay.ms;
}

/** The decimal number text[from, to) spells, NaN unless all are digits. */
function digits(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return NaN;
    n = n * 10 + d;
  }
  return n;
}

function at(value: unknown, path: string[]): unknown {
  let v = value;
  for (let i = 0; i < path.length; i++) {
    if (!isObject(v)) return undefined;
    v = v[path[i]];
  }
  return v;
}

function numberAt(value: unknown, path: string[]): number | null {
  const v = at(value, path);
  return typeof v === "number" ? v : null;
}

/** `#>> path`: the text of the value there, null when absent or JSON null. */
function textAt(value: unknown, path: string[]): string | null {
  return jsonText(at(value, path));
}

function jsonText(v: unknown): string | null {
  if (v === undefined || v === null) return null;
  return typeof v === "string" ? v : typeof v === "object" ? JSON.stringify(v) : String(v);
}

/** `jsonb_path_query_first(refs, '$[*] ? (@.attributes.key == key).field') #>> '{}'`. */
function refText(references: unknown, key: string, field: string): string | null {
  if (!Array.isArray(references)) return null;
  for (const r of references) {
    if (isObject(r) && isObject(r.attributes) && r.attributes.key === key && r[field] !== undefined)
      return jsonText(r[field]);
  }
  return null;
}
