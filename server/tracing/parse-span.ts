import { randomBytes } from "node:crypto";
import { cleanAgNamespace, getPath, isObject, setPath, unmarshal, type JsonObject } from "./attributes";
import { parseSpanId, parseTraceId } from "./ids";
import { computeSpanMetrics } from "./metrics";
import { mapSemanticConventions } from "./semantic-conventions";
import {
  SPAN_KINDS,
  SPAN_TYPES,
  STATUS_CODES,
  type SpanEvent,
  type SpanLink,
  type SpanRecord,
  type SpanReference,
  type SpanType,
} from "./span-record";
import { microsToIso, nowMicros, parseTimestamp } from "./timestamps";

export class SpanParseError extends Error {}

export interface ParseOptions {
  /** Used when the span gives no trace id (nodes of a `traces` tree inherit their key). */
  traceId?: string;
  /** Used when the span gives no parent id (children in a `traces` tree). */
  parentId?: string | null;
  /** Used when the span gives no name (the key of a node in a `traces` tree). */
  spanName?: string;
  /** OTLP resource and scope, kept beside the attributes. */
  resource?: JsonObject | null;
  now?: number;
}

/**
 * One span of an `OTelTracingRequest` (or converted from OTLP) to a SpanRecord, with the
 * reference implementation's defaults: kind UNSPECIFIED, status UNSET, span type from
 * `ag.type.span` (then the conventions, then a top-level `span_type`, else `task`), a missing start
 * or end copies the other (both missing: now), a missing name gets 12 random hex digits.
 * `trace_type` is set later, per trace (see inferTraceTypes). Throws SpanParseError with the
 * reason.
 */
export function parseSpan(raw: unknown, options: ParseOptions = {}): SpanRecord {
  if (!isObject(raw)) throw new SpanParseError("a span must be an object");
  const traceSource = raw.trace_id !== undefined && raw.trace_id !== null ? raw.trace_id : options.traceId;
  const traceId = parseTraceId(traceSource);
  if (!traceId)
    throw new SpanParseError(
      traceSource === undefined
        ? "trace_id is missing"
        : `trace_id ${short(traceSource)} is not 32 hex digits or a UUID`,
    );
  const spanId = parseSpanId(raw.span_id);
  if (!spanId)
    throw new SpanParseError(
      raw.span_id === undefined
        ? "span_id is missing"
        : `span_id ${short(raw.span_id)} is not 16 or 32 hex digits or a UUID`,
    );
  let parentId: string | null = options.parentId ?? null;
  if (raw.parent_id !== undefined && raw.parent_id !== null && raw.parent_id !== "") {
    const parsed = parseSpanId(raw.parent_id);
    if (!parsed) throw new SpanParseError(`parent_id ${short(raw.parent_id)} is not 16 or 32 hex digits or a UUID`);
    parentId = parsed;
  }

  let start = timeField(raw, "start_time");
  let end = timeField(raw, "end_time");
  if (start === undefined && end === undefined) start = end = options.now ?? nowMicros();
  else if (start === undefined) start = end;
  else if (end === undefined) end = start;

  const spanKind = enumField(raw.span_kind, SPAN_KINDS, "SPAN_KIND_", "span_kind") ?? "SPAN_KIND_UNSPECIFIED";
  const statusCode = enumField(raw.status_code, STATUS_CODES, "STATUS_CODE_", "status_code") ?? "STATUS_CODE_UNSET";

  const rawAttributes = raw.attributes === undefined || raw.attributes === null ? {} : raw.attributes;
  if (!isObject(rawAttributes)) throw new SpanParseError("attributes must be an object");
  let attributes = unmarshal(rawAttributes);
  const conventionType = mapSemanticConventions(attributes);
  attributes = cleanAgNamespace(attributes);

  const events = parseEvents(raw.events);
  const links = parseLinks(raw.links);
  const exceptionEvents = (events ?? []).filter((e) => e.name === "exception");
  const lastException = exceptionEvents.at(-1);
  const exception = isObject(raw.exception) ? raw.exception : lastException ? exceptionOf(lastException) : null;

  const spanType = resolveSpanType(getPath(attributes, ["ag", "type", "span"]), conventionType, raw.span_type);
  setPath(attributes, ["ag", "type", "span"], spanType);
  computeSpanMetrics(attributes, start!, end!, exceptionEvents.length, statusCode === "STATUS_CODE_ERROR");

  const references = mergeReferences(raw.references, getPath(attributes, ["ag", "references"]));
  const isRoot = parentId === null;
  const sessionId = isRoot ? (text(raw.session_id) ?? text(getPath(attributes, ["ag", "session", "id"]))) : null;
  const userId = isRoot ? (text(raw.user_id) ?? text(getPath(attributes, ["ag", "user", "id"]))) : null;
  const agentId = isRoot ? (text(raw.agent_id) ?? text(getPath(attributes, ["ag", "meta", "agent", "id"]))) : null;

  return {
    trace_id: traceId,
    span_id: spanId,
    parent_id: parentId,
    start_time: microsToIso(start!),
    end_time: microsToIso(end!),
    trace_type: "unknown",
    span_type: spanType,
    span_kind: spanKind,
    span_name: text(raw.span_name) ?? text(raw.name) ?? options.spanName ?? randomBytes(6).toString("hex"),
    status_code: statusCode,
    status_message: text(raw.status_message),
    session_id: sessionId,
    user_id: userId,
    agent_id: agentId,
    attributes,
    references,
    links,
    events,
    exception,
    resource: options.resource ?? (isObject(raw.resource) ? raw.resource : null),
  };
}

/** Per trace: `annotation` when any of its spans has links (an empty list counts), else `invocation`. */
export function inferTraceTypes(spans: SpanRecord[]): void {
  const annotated = new Set(spans.filter((s) => s.links !== null).map((s) => s.trace_id));
  for (const span of spans) {
    span.trace_type = annotated.has(span.trace_id) ? "annotation" : "invocation";
    setPath(span.attributes, ["ag", "type", "trace"], span.trace_type);
  }
}

/**
 * An exception event's attributes, OpenTelemetry's `exception.message` style or the
 * reference implementation's `message`.
 */
function exceptionOf(event: SpanEvent): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(event.attributes ?? {}))
    out[key.startsWith("exception.") ? key.slice("exception.".length) : key] = value;
  out.timestamp = event.timestamp;
  return out;
}

function timeField(raw: JsonObject, field: string): number | undefined {
  const value = raw[field];
  if (value === undefined || value === null || value === "") return undefined;
  const us = parseTimestamp(value);
  if (us === undefined)
    throw new SpanParseError(
      `${field} ${short(value)} is not an ISO 8601 time or an integer of 10, 13, 16 or 19 digits`,
    );
  return us;
}

function enumField<T extends string>(
  value: unknown,
  allowed: readonly T[],
  prefix: string,
  field: string,
): T | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value === "number") {
    const found = allowed[value];
    if (found) return found;
  } else if (typeof value === "string") {
    const upper = value.trim().toUpperCase();
    const candidate = (upper.startsWith(prefix) ? upper : prefix + upper) as T;
    if (allowed.includes(candidate)) return candidate;
  }
  throw new SpanParseError(`${field} ${short(value)} is not one of ${allowed.join(", ")}`);
}

function resolveSpanType(fromAg: unknown, fromConventions: SpanType | undefined, fromField: unknown): SpanType {
  for (const candidate of [fromAg, fromConventions, fromField]) {
    if (typeof candidate === "string" && (SPAN_TYPES as readonly string[]).includes(candidate.toLowerCase()))
      return candidate.toLowerCase() as SpanType;
  }
  return "task";
}

function parseEvents(value: unknown): SpanEvent[] | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value)) throw new SpanParseError("events must be a list");
  return value.map((e, i) => {
    if (!isObject(e)) throw new SpanParseError(`events[${i}] must be an object`);
    const us = e.timestamp === undefined || e.timestamp === null ? undefined : parseTimestamp(e.timestamp);
    if (e.timestamp !== undefined && e.timestamp !== null && us === undefined)
      throw new SpanParseError(`events[${i}].timestamp ${short(e.timestamp)} is not a time`);
    const event: SpanEvent = { name: text(e.name) ?? "event", timestamp: microsToIso(us ?? nowMicros()) };
    if (isObject(e.attributes)) event.attributes = e.attributes;
    return event;
  });
}

function parseLinks(value: unknown): SpanLink[] | null {
  if (value === undefined || value === null) return null;
  const list = Array.isArray(value)
    ? value
    : isObject(value)
      ? Object.entries(value).map(([key, link]) =>
          isObject(link)
            ? { ...link, attributes: { ...(isObject(link.attributes) ? link.attributes : {}), key } }
            : link,
        )
      : null;
  if (!list) throw new SpanParseError("links must be a list or a map of named links");
  return list.map((l, i) => {
    if (!isObject(l)) throw new SpanParseError(`links[${i}] must be an object`);
    const traceId = parseTraceId(l.trace_id);
    const spanId = parseSpanId(l.span_id);
    if (!traceId || !spanId) throw new SpanParseError(`links[${i}] needs a valid trace_id and span_id`);
    return {
      trace_id: traceId.replaceAll("-", ""),
      span_id: spanId.replaceAll("-", "").slice(-16),
      ...(isObject(l.attributes) ? { attributes: l.attributes } : {}),
    };
  });
}

function mergeReferences(field: unknown, fromAg: unknown): SpanReference[] | null {
  const out: SpanReference[] = [];
  if (Array.isArray(field)) {
    for (const r of field) {
      if (!isObject(r)) continue;
      const ref: SpanReference = {};
      if (r.id !== undefined && r.id !== null) ref.id = String(r.id);
      if (typeof r.slug === "string") ref.slug = r.slug;
      if (r.version !== undefined && r.version !== null) ref.version = String(r.version);
      if (isObject(r.attributes)) ref.attributes = r.attributes;
      out.push(ref);
    }
  }
  if (isObject(fromAg)) {
    for (const [key, r] of Object.entries(fromAg)) {
      if (!isObject(r)) continue;
      const ref: SpanReference = { attributes: { key } };
      if (typeof r.id === "string") ref.id = r.id;
      if (typeof r.slug === "string") ref.slug = r.slug;
      if (typeof r.version === "string") ref.version = r.version;
      out.push(ref);
    }
  }
  return out.length > 0 ? out : null;
}

function text(value: unknown): string | null {
  if (typeof value === "string") return value === "" ? null : value;
  if (typeof value === "number") return String(value);
  return null;
}

function short(value: unknown): string {
  const s = JSON.stringify(value) ?? String(value);
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
}
