import { isObject, type JsonObject } from "../attributes";
import { parseTimestamp } from "../timestamps";

/**
 * What analytics counts of one span, twice: as SQL over a row of `spans` (the scan in
 * server/analytics, and the benchmark's seeding) and as JavaScript over a span record (the
 * roll-up the ingest worker writes, span-rollups.ts). The two must agree exactly: tests compare
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
  dimensions: Record<SpanDimension, string>;
  root: boolean;
  traceType: string;
  startMicros: number;
  error: boolean;
  durationMs: number;
  latencyBin: number;
  ttftMs: number | null;
  ttftBin: number | null;
  /** Numeric entries only; a run's totals (`runTokens`, `runCosts`) only on a root. */
  tokens: [string, number][];
  costs: [string, number][];
  runTokens: [string, number][];
  runCosts: [string, number][];
}

/** spanDimensionsSql and spanFactsSql of one span, in JavaScript. */
export function spanFacts(span: FactSpan): SpanFacts {
  const a = span.attributes;
  const start = micros(span.start_time) ?? 0;
  const end = micros(span.end_time) ?? start;
  const durationMs = Math.max((end - start) / 1000, 0);
  const chunk = numberAt(a, ["ai", "response", "msToFirstChunk"]);
  const serverTtft = numberAt(a, ["gen_ai", "server", "time_to_first_token"]);
  const ttftMs = chunk ?? (serverTtft === null ? null : 1000 * serverTtft);
  const root = span.parent_id === null;
  return {
    dimensions: {
      agent: span.agent_id ?? refText(span.references, "workflow", "id") ?? "",
      model: textAt(a, ["ag", "meta", "request", "model"]) ?? textAt(a, ["ag", "meta", "response", "model"]) ?? "",
      provider: textAt(a, ["ag", "meta", "system"]) ?? "",
      environment:
        refText(span.references, "environment", "slug") ?? refText(span.references, "environment", "id") ?? "",
      revision: refText(span.references, "workflow_revision", "id") ?? "",
      api_key: textAt(a, ["ag", "meta", "api_key", "id"]) ?? "",
      user: span.user_id ?? "",
    },
    root,
    traceType: span.trace_type,
    startMicros: start,
    error:
      span.status_code === "STATUS_CODE_ERROR" || (numberAt(a, ["ag", "metrics", "errors", "incremental"]) ?? 0) > 0,
    durationMs,
    latencyBin: binOf(durationMs),
    ttftMs,
    ttftBin: ttftMs === null ? null : binOf(ttftMs),
    tokens: numericEntries(at(a, ["ag", "metrics", "tokens", "incremental"])),
    costs: numericEntries(at(a, ["ag", "metrics", "costs", "incremental"])),
    runTokens: root ? numericEntries(at(a, ["ag", "metrics", "tokens", "cumulative"])) : [],
    runCosts: root ? numericEntries(at(a, ["ag", "metrics", "costs", "cumulative"])) : [],
  };
}

/** A span time in microseconds: a span record's normalised form read without a regex, else parseTimestamp. */
function micros(text: string): number | undefined {
  if (text.length === 27 && text[10] === "T" && text[19] === "." && text[26] === "Z") {
    const n = (from: number, to: number) => Number(text.slice(from, to));
    const ms = Date.UTC(n(0, 4), n(5, 7) - 1, n(8, 10), n(11, 13), n(14, 16), n(17, 19));
    const us = n(20, 26);
    if (Number.isFinite(ms) && Number.isInteger(us)) return ms * 1000 + us;
  }
  return parseTimestamp(text);
}

function at(value: unknown, path: string[]): unknown {
  let v = value;
  for (const k of path) {
    if (!isObject(v)) return undefined;
    v = v[k];
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

function numericEntries(map: unknown): [string, number][] {
  if (!isObject(map)) return [];
  const out: [string, number][] = [];
  for (const [k, v] of Object.entries(map)) if (typeof v === "number") out.push([k, v]);
  return out;
}
