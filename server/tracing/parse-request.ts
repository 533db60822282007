import { isObject, type JsonObject } from "./attributes";
import { inferTraceTypes, parseSpan, SpanParseError, type ParseOptions } from "./parse-span";
import type { DroppedSpan, SpanRecord } from "./span-record";
import { nowMicros } from "./timestamps";

export interface ParsedSpans {
  spans: SpanRecord[];
  dropped: DroppedSpan[];
}

/**
 * An `OTelTracingRequest`: `spans` (a flat list, parentage by `parent_id`) or `traces` (a tree
 * `{trace_id: {spans: {name: node | [nodes]}}}`, children under each node's `spans`). When both
 * are sent `spans` wins, as in the reference implementation. Unlike the reference implementation,
 * lists are accepted at every level of the tree, and spans that do not parse are reported in
 * `dropped` instead of vanishing.
 */
export function parseTracingRequest(body: unknown): ParsedSpans {
  const out: ParsedSpans = { spans: [], dropped: [] };
  if (!isObject(body)) return out;
  const now = nowMicros();
  if (Array.isArray(body.spans)) {
    body.spans.forEach((raw, index) => tryParse(out, raw, index, { now }));
  } else if (isObject(body.traces)) {
    let index = 0;
    const walk = (nodes: unknown, options: ParseOptions) => {
      if (!isObject(nodes)) return;
      for (const [name, value] of Object.entries(nodes)) {
        for (const node of Array.isArray(value) ? value : [value]) {
          const span = tryParse(out, node, index++, { ...options, spanName: name });
          if (span && isObject(node))
            walk((node as JsonObject).spans, { ...options, traceId: span.trace_id, parentId: span.span_id });
        }
      }
    };
    for (const [traceKey, trace] of Object.entries(body.traces)) {
      if (!isObject(trace)) continue;
      walk(trace.spans, { now, traceId: traceKey, parentId: null });
    }
  }
  inferTraceTypes(out.spans);
  return out;
}

function tryParse(out: ParsedSpans, raw: unknown, index: number, options: ParseOptions): SpanRecord | undefined {
  try {
    const span = parseSpan(raw, options);
    out.spans.push(span);
    return span;
  } catch (error) {
    if (!(error instanceof SpanParseError)) throw error;
    const spanId = isObject(raw) && typeof raw.span_id === "string" ? raw.span_id : undefined;
    out.dropped.push({ index, ...(spanId ? { span_id: spanId } : {}), reason: error.message });
    return undefined;
  }
}
