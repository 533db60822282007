import { z } from "zod";
import { spanIdToWire, traceIdToWire } from "./ids";
import { parseTimestamp } from "./timestamps";
import { isoTimestampSchema } from "@/server/core/time";

/** A `spans` row as read (snake_case, times as PostgreSQL text so microseconds survive). */
export interface SpanRow {
  trace_id: string;
  span_id: string;
  parent_id: string | null;
  start_time: string;
  end_time: string;
  trace_type: string;
  span_type: string;
  span_kind: string;
  span_name: string;
  status_code: string;
  status_message: string | null;
  session_id: string | null;
  user_id: string | null;
  agent_id: string | null;
  attributes: Record<string, unknown>;
  references: unknown[] | null;
  links: unknown[] | null;
  events: unknown[] | null;
  exception: Record<string, unknown> | null;
  resource: Record<string, unknown> | null;
  created_at: string;
  updated_at: string;
}

export const SPAN_ROW_COLUMNS = `trace_id::text, span_id::text, parent_id::text, start_time::text as start_time,
  end_time::text as end_time, trace_type, span_type, span_kind, span_name, status_code, status_message, session_id,
  user_id, agent_id, attributes, "references", links, events, exception, resource, created_at::text as created_at,
  updated_at::text as updated_at`;

export type WireSpan = Record<string, unknown>;

/**
 * The span on the wire: ids in the OpenTelemetry hex forms (32 for traces, 16 for spans, or 32 for
 * a span sent with a 128-bit id), times
 * ISO 8601 UTC with microseconds (span timing needs them; lifecycle times keep milliseconds),
 * null fields omitted.
 */
export function spanToWire(row: SpanRow): WireSpan {
  const out: WireSpan = {
    trace_id: traceIdToWire(row.trace_id),
    span_id: spanIdToWire(row.span_id),
    parent_id: row.parent_id ? spanIdToWire(row.parent_id) : undefined,
    trace_type: row.trace_type,
    span_type: row.span_type,
    span_kind: row.span_kind,
    span_name: row.span_name,
    start_time: isoMicros(row.start_time),
    end_time: isoMicros(row.end_time),
    status_code: row.status_code,
    status_message: row.status_message,
    session_id: row.session_id,
    user_id: row.user_id,
    agent_id: row.agent_id,
    attributes: row.attributes,
    references: row.references,
    links: row.links,
    events: row.events,
    exception: row.exception,
    resource: row.resource,
    created_at: new Date(Date.parse(isoMicros(row.created_at))).toISOString(),
    updated_at: new Date(Date.parse(isoMicros(row.updated_at))).toISOString(),
  };
  for (const key of Object.keys(out)) if (out[key] === null || out[key] === undefined) delete out[key];
  return out;
}

function isoMicros(pgText: string): string {
  const us = parseTimestamp(pgText);
  if (us === undefined) return pgText;
  const ms = Math.floor(us / 1000);
  return new Date(ms).toISOString().replace("Z", `${String(us - ms * 1000).padStart(3, "0")}Z`);
}

function mergeNamed(into: Record<string, unknown>, from: Record<string, unknown>): Record<string, unknown> {
  const out = { ...into };
  for (const [name, node] of Object.entries(from)) {
    const existing = out[name];
    out[name] =
      existing === undefined
        ? node
        : [...(Array.isArray(existing) ? existing : [existing]), ...(Array.isArray(node) ? node : [node])];
  }
  return out;
}

/**
 * A trace as the reference implementation shapes it: `{trace_id, spans: {<root name>: span}}`, each
 * span's children under its own `spans`, siblings of the same name as a list (in start order).
 * Spans whose parent is not in the trace are roots.
 */
export function traceToWire(traceId: string, rows: SpanRow[]): { trace_id: string; spans: Record<string, unknown> } {
  const sorted = [...rows].sort((a, b) => (a.start_time < b.start_time ? -1 : a.start_time > b.start_time ? 1 : 0));
  const ids = new Set(sorted.map((r) => r.span_id));
  const children = new Map<string | null, SpanRow[]>();
  for (const row of sorted) {
    const parent = row.parent_id && ids.has(row.parent_id) && row.parent_id !== row.span_id ? row.parent_id : null;
    const list = children.get(parent) ?? [];
    list.push(row);
    children.set(parent, list);
  }
  const seen = new Set<string>();
  const build = (parent: string | null): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const row of children.get(parent) ?? []) {
      if (seen.has(row.span_id)) continue;
      seen.add(row.span_id);
      const node: WireSpan = spanToWire(row);
      const nested = build(row.span_id);
      if (Object.keys(nested).length > 0) node.spans = nested;
      const existing = out[row.span_name];
      if (existing === undefined) out[row.span_name] = node;
      else if (Array.isArray(existing)) existing.push(node);
      else out[row.span_name] = [existing, node];
    }
    return out;
  };
  const spans = build(null);
  // Spans caught in a parent cycle are reachable from no root: shown as roots rather than lost.
  for (const row of sorted) {
    if (seen.has(row.span_id)) continue;
    children.set(`cycle:${row.span_id}`, [row]);
    Object.assign(spans, mergeNamed(spans, build(`cycle:${row.span_id}`)));
  }
  return { trace_id: traceIdToWire(traceId), spans };
}

// The schemas of the wire forms above (the response contracts in OpenAPI).

const record = z.record(z.string(), z.unknown());
/** ISO 8601 UTC with microseconds (or the stored text when it could not be read). */
const spanTime = z.string();

/** 16 hex digits (OpenTelemetry's form); all 32 for a span sent with a 128-bit id (ids.ts, spanIdToWire). */
const wireSpanId = z.string().regex(/^[0-9a-f]{16}(?:[0-9a-f]{16})?$/);

export const spanWire = z.strictObject({
  trace_id: z.string().regex(/^[0-9a-f]{32}$/),
  span_id: wireSpanId,
  parent_id: wireSpanId.optional(),
  trace_type: z.string(),
  span_type: z.string(),
  span_kind: z.string(),
  span_name: z.string(),
  start_time: spanTime,
  end_time: spanTime,
  status_code: z.string(),
  status_message: z.string().optional(),
  session_id: z.string().optional(),
  user_id: z.string().optional(),
  agent_id: z.string().optional(),
  attributes: record,
  references: z.array(z.unknown()).optional(),
  links: z.array(z.unknown()).optional(),
  events: z.array(z.unknown()).optional(),
  exception: record.optional(),
  resource: record.optional(),
  created_at: isoTimestampSchema,
  updated_at: isoTimestampSchema,
});

/** A span in a tree: its children under `spans`, by name, one span or a list of same-named ones. */
export type TreeSpan = z.infer<typeof spanWire> & { spans?: Record<string, TreeSpan | TreeSpan[]> };
export const treeSpanWire: z.ZodType<TreeSpan> = spanWire.extend({
  get spans() {
    return spanTreeWire.optional();
  },
});
export const spanTreeWire: z.ZodType<Record<string, TreeSpan | TreeSpan[]>> = z.record(
  z.string(),
  z.union([treeSpanWire, z.array(treeSpanWire)]),
);

export const traceWire = z.strictObject({ trace_id: z.string(), spans: spanTreeWire });
