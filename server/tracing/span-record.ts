/**
 * A span after parsing and normalisation: what the ingest queue holds and the worker writes.
 * Field names are the `spans` columns, so a batch travels to SQL as one JSON array.
 */
export interface SpanRecord {
  trace_id: string;
  span_id: string;
  parent_id: string | null;
  /** ISO 8601 with microseconds. */
  start_time: string;
  end_time: string;
  trace_type: TraceType;
  span_type: SpanType;
  span_kind: SpanKind;
  span_name: string;
  status_code: StatusCode;
  status_message: string | null;
  session_id: string | null;
  user_id: string | null;
  agent_id: string | null;
  attributes: Record<string, unknown>;
  references: SpanReference[] | null;
  links: SpanLink[] | null;
  events: SpanEvent[] | null;
  exception: Record<string, unknown> | null;
  resource: Record<string, unknown> | null;
}

export interface SpanReference {
  id?: string;
  slug?: string;
  version?: string;
  attributes?: Record<string, unknown>;
}

export interface SpanLink {
  trace_id: string;
  span_id: string;
  attributes?: Record<string, unknown>;
}

export interface SpanEvent {
  name: string;
  timestamp: string;
  attributes?: Record<string, unknown>;
}

export const TRACE_TYPES = ["invocation", "annotation", "unknown"] as const;
export type TraceType = (typeof TRACE_TYPES)[number];

export const SPAN_TYPES = [
  "agent",
  "chain",
  "workflow",
  "task",
  "tool",
  "embedding",
  "query",
  "llm",
  "completion",
  "chat",
  "rerank",
  "unknown",
] as const;
export type SpanType = (typeof SPAN_TYPES)[number];

export const SPAN_KINDS = [
  "SPAN_KIND_UNSPECIFIED",
  "SPAN_KIND_INTERNAL",
  "SPAN_KIND_SERVER",
  "SPAN_KIND_CLIENT",
  "SPAN_KIND_PRODUCER",
  "SPAN_KIND_CONSUMER",
] as const;
export type SpanKind = (typeof SPAN_KINDS)[number];

export const STATUS_CODES = ["STATUS_CODE_UNSET", "STATUS_CODE_OK", "STATUS_CODE_ERROR"] as const;
export type StatusCode = (typeof STATUS_CODES)[number];

/** A span that did not parse: its position in the request (or its span id when it had one) and why. */
export interface DroppedSpan {
  index?: number;
  span_id?: string;
  reason: string;
}
