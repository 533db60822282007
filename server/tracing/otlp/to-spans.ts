import { isObject, type JsonObject } from "../attributes";
import { inferTraceTypes, parseSpan, SpanParseError } from "../parse-span";
import type { DroppedSpan, SpanRecord } from "../span-record";
import { microsToIso, nowMicros } from "../timestamps";

/**
 * OTLP `resourceSpans` to SpanRecords. Resource and scope attributes are kept in `resource`
 * (the reference implementation drops them); span attributes go through the same normalisation as
 * JSON ingest, where the GenAI, AI SDK and OpenInference conventions are mapped. A span that does
 * not parse (kind 999, a bad id) is dropped and counted, the rest are kept (best effort).
 */
export function otlpToSpans(request: JsonObject): { spans: SpanRecord[]; dropped: DroppedSpan[] } {
  const spans: SpanRecord[] = [];
  const dropped: DroppedSpan[] = [];
  const now = nowMicros();
  let index = 0;
  for (const rs of list(field(request, "resourceSpans"))) {
    const resourceAttributes = keyValues(field(field(rs, "resource"), "attributes"));
    const scopeGroups = [...list(field(rs, "scopeSpans")), ...list(field(rs, "instrumentationLibrarySpans"))];
    for (const ss of scopeGroups) {
      const scope = field(ss, "scope") ?? field(ss, "instrumentationLibrary");
      const resource: JsonObject = {
        attributes: resourceAttributes,
        ...(isObject(scope)
          ? {
              scope: {
                ...(typeof scope.name === "string" && scope.name ? { name: scope.name } : {}),
                ...(typeof scope.version === "string" && scope.version ? { version: scope.version } : {}),
                ...(list(field(scope, "attributes")).length > 0
                  ? { attributes: keyValues(field(scope, "attributes")) }
                  : {}),
              },
            }
          : {}),
      };
      for (const raw of list(field(ss, "spans"))) {
        const at = index++;
        try {
          spans.push(parseSpan(toInputSpan(raw), { resource, now }));
        } catch (error) {
          if (!(error instanceof SpanParseError)) throw error;
          const spanId =
            isObject(raw) && typeof field(raw, "spanId") === "string" ? (field(raw, "spanId") as string) : undefined;
          dropped.push({ index: at, ...(spanId ? { span_id: spanId } : {}), reason: error.message });
        }
      }
    }
  }
  inferTraceTypes(spans);
  return { spans, dropped };
}

function toInputSpan(raw: unknown): JsonObject {
  if (!isObject(raw)) throw new SpanParseError("a span must be an object");
  const status = field(raw, "status");
  const links = list(field(raw, "links"));
  const parent = field(raw, "parentSpanId");
  return {
    trace_id: field(raw, "traceId"),
    span_id: field(raw, "spanId"),
    parent_id: typeof parent === "string" && parent !== "" && !/^0+$/.test(parent) ? parent : null,
    span_name: field(raw, "name"),
    span_kind: enumNumber(field(raw, "kind"), "SPAN_KIND_"),
    start_time: nanosToIso(field(raw, "startTimeUnixNano")),
    end_time: nanosToIso(field(raw, "endTimeUnixNano")),
    status_code: isObject(status) ? enumNumber(field(status, "code"), "STATUS_CODE_") : undefined,
    status_message:
      isObject(status) && typeof status.message === "string" && status.message ? status.message : undefined,
    attributes: keyValues(field(raw, "attributes")),
    events: list(field(raw, "events")).map((e) => ({
      name: field(e, "name"),
      timestamp: nanosToIso(field(e, "timeUnixNano")),
      attributes: keyValues(field(e, "attributes")),
    })),
    links:
      links.length > 0
        ? links.map((l) => ({
            trace_id: field(l, "traceId"),
            span_id: field(l, "spanId"),
            attributes: keyValues(field(l, "attributes")),
          }))
        : null,
  };
}

/** JSON may carry enums as numbers or as their names. */
function enumNumber(value: unknown, prefix: string): unknown {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string" && /^\d+$/.test(value)) return Number(value);
  if (typeof value === "string" && !value.startsWith(prefix)) return `${prefix}${value}`;
  return value;
}

function nanosToIso(value: unknown): string | undefined {
  if (value === undefined || value === null || value === "" || value === "0" || value === 0) return undefined;
  let nanos: bigint;
  try {
    nanos = BigInt(typeof value === "number" ? Math.round(value) : String(value));
  } catch {
    throw new SpanParseError(`time ${JSON.stringify(value)} is not a count of nanoseconds`);
  }
  if (nanos <= 0n) return undefined;
  return microsToIso(Number(nanos / 1000n));
}

/** OTLP KeyValue list to a flat object of plain values. */
export function keyValues(value: unknown): JsonObject {
  const out: JsonObject = {};
  for (const kv of list(value)) {
    if (!isObject(kv) || typeof kv.key !== "string") continue;
    out[kv.key] = anyValue(kv.value);
  }
  return out;
}

function anyValue(value: unknown): unknown {
  if (!isObject(value)) return null;
  const v = (name: string) => field(value, name);
  if (v("stringValue") !== undefined) return v("stringValue");
  if (v("boolValue") !== undefined) return v("boolValue");
  if (v("intValue") !== undefined) {
    const n = Number(v("intValue"));
    return Number.isSafeInteger(n) ? n : String(v("intValue"));
  }
  if (v("doubleValue") !== undefined) return Number(v("doubleValue"));
  if (v("arrayValue") !== undefined) return list(field(v("arrayValue"), "values")).map(anyValue);
  if (v("kvlistValue") !== undefined) return keyValues(field(v("kvlistValue"), "values"));
  if (v("bytesValue") !== undefined) return v("bytesValue");
  return null;
}

/** A field by its lowerCamelCase name or its snake_case proto name (both are valid OTLP JSON). */
function field(obj: unknown, camel: string): unknown {
  if (!isObject(obj)) return undefined;
  if (obj[camel] !== undefined) return obj[camel];
  return obj[camel.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)];
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
