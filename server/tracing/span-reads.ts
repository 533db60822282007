import { BadRequestError } from "@/server/core/errors";
import { replicaRead, type Database } from "@/server/db";
import { parseSpanId, storedTraceId } from "./ids";
import { loadTraces } from "./store/read-spans";
import { spanToWire } from "./wire";

/** GET /spans/{trace_id}/{span_id} and GET /spans/?trace_id=&span_id=: spans by id, in the caller's project. */

const MAX_IDS = 1000;

function spanIdOf(raw: string): string {
  const id = parseSpanId(raw);
  if (!id)
    throw new BadRequestError(`span_id ${JSON.stringify(raw)} is not 16 or 32 hex digits or a UUID`, "invalid_value");
  return id;
}

/** One span: `{count: 1, span}`, or `{count: 0}` when unknown (as GET /traces/{id} answers a miss). */
export async function fetchSpan(db: Database, projectId: string, rawTraceId: string, rawSpanId: string) {
  const traceId = storedTraceId(rawTraceId);
  const spanId = spanIdOf(rawSpanId);
  const spans = (await replicaRead(db, (r) => loadTraces(r, projectId, [traceId]))).get(traceId) ?? [];
  const span = spans.find((s) => s.span_id === spanId);
  return span ? { count: 1, span: spanToWire(span) } : { count: 0 };
}

/**
 * The spans of the given traces (`trace_id` repeated or `trace_ids` comma-separated), only those
 * named when `span_id`s are given; in start order. A trace id is required: spans are found through
 * their trace (a span id alone would probe every partition).
 */
export async function listSpans(db: Database, projectId: string, rawTraceIds: string[], rawSpanIds: string[]) {
  if (rawTraceIds.length === 0)
    throw new BadRequestError(
      "Give the spans' traces as trace_id (repeated) or trace_ids (comma-separated); span_id narrows them",
      "missing_trace_ids",
    );
  if (rawTraceIds.length > MAX_IDS || rawSpanIds.length > MAX_IDS)
    throw new BadRequestError(`At most ${MAX_IDS} trace ids and ${MAX_IDS} span ids per request`, "too_many_trace_ids");
  const traceIds = [...new Set(rawTraceIds.map((raw) => storedTraceId(raw)))];
  const wanted = rawSpanIds.length > 0 ? new Set(rawSpanIds.map(spanIdOf)) : undefined;
  const traces = await replicaRead(db, (r) => loadTraces(r, projectId, traceIds));
  const spans = traceIds
    .flatMap((id) => traces.get(id) ?? [])
    .filter((s) => !wanted || wanted.has(s.span_id))
    .sort((a, b) => (a.start_time < b.start_time ? -1 : a.start_time > b.start_time ? 1 : 0));
  return { count: spans.length, spans: spans.map(spanToWire) };
}

/** A repeated query parameter and its comma-separated plural, trimmed, empty ones left out. */
export function idsParam(search: URLSearchParams, name: string): string[] {
  return [...search.getAll(name), ...search.getAll(`${name}s`).flatMap((v) => v.split(","))]
    .map((v) => v.trim())
    .filter((v) => v !== "");
}
