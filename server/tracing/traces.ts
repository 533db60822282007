import { BadRequestError, MethodNotAllowedError } from "@/server/core/errors";
import { replicaRead, type Database } from "@/server/db";
import { capped, emitEvent } from "@/server/events";
import { storedTraceId, traceIdToWire } from "./ids";
import { queryTracePage, querySpanPage } from "./query/run-query";
import { parseWindowing } from "./query/windowing";
import { withSavedQuery, type QueryTerms, type SavedQueryRefs } from "./saved-query";
import { loadTraces, newestFirst } from "./store/read-spans";
import { spanToWire, traceToWire } from "./wire";

export interface Reader {
  projectId: string;
  userId: string;
}

// Reads go to a read replica that has replayed the caller's last write (server/db/read-routing.ts);
// the read events are written on the primary.

/** GET /traces/{trace_id}: the trace as a tree, or `{count: 0}`; emits traces.fetched when found. */
export async function fetchTrace(db: Database, reader: Reader, rawId: string) {
  if (rawId === "query" || rawId === "ingest") throw new MethodNotAllowedError("GET", `/api/traces/${rawId}`, ["POST"]);
  const traceId = storedTraceId(rawId);
  const spans = (await replicaRead(db, (r) => loadTraces(r, reader.projectId, [traceId]))).get(traceId);
  if (!spans) return { count: 0 };
  await emitEvent(db, {
    projectId: reader.projectId,
    type: "traces.fetched",
    attributes: { trace_id: traceIdToWire(traceId), count: 1, user_id: reader.userId },
  });
  return { count: 1, trace: traceToWire(traceId, spans) };
}

/** GET /traces/?trace_id=a&trace_id=b or ?trace_ids=a,b: found traces newest first; emits traces.fetched. */
export async function listTraces(db: Database, reader: Reader, rawIds: string[]) {
  if (rawIds.length === 0)
    throw new BadRequestError(
      "Give the traces to list as trace_id (repeated) or trace_ids (comma-separated)",
      "missing_trace_ids",
    );
  if (rawIds.length > 1000) throw new BadRequestError("At most 1000 trace ids per request", "too_many_trace_ids");
  const ids = rawIds.map((raw) => storedTraceId(raw));
  const traces = await replicaRead(db, (r) => loadTraces(r, reader.projectId, [...new Set(ids)]));
  const order = newestFirst(traces);
  await emitTraceRead(db, reader, "traces.fetched", order);
  return { count: order.length, traces: order.map((id) => traceToWire(id, traces.get(id)!)) };
}

export type QueryBody = QueryTerms & SavedQueryRefs;

/**
 * POST /traces/query: traces newest first, paged; emits traces.queried. A named saved query applies
 * (saved-query.ts). It answers traces whatever `formatting.focus` says, as the reference
 * implementation's does (spans are POST /spans/query's); a query saved for spans is a 409.
 */
export async function queryTraces(db: Database, reader: Reader, body: QueryBody) {
  const terms = await withSavedQuery(db, reader.projectId, body, "trace");
  const window = parseWindowing(terms.windowing, "trace");
  const page = await replicaRead(db, (r) => queryTracePage(r, reader.projectId, terms.filtering, window));
  await emitTraceRead(
    db,
    reader,
    "traces.queried",
    page.traces.map((t) => t.traceId),
  );
  return {
    count: page.traces.length,
    traces: page.traces.map((t) => traceToWire(t.traceId, t.spans)),
    ...(page.next ? { windowing: { next: page.next } } : {}),
  };
}

/** POST /spans/query: matching spans, flat, newest first, paged. A named saved query applies (saved-query.ts). */
export async function querySpans(db: Database, reader: Reader, body: QueryBody) {
  const terms = await withSavedQuery(db, reader.projectId, body, "span");
  const window = parseWindowing(terms.windowing, "span");
  const page = await replicaRead(db, (r) => querySpanPage(r, reader.projectId, terms.filtering, window));
  return {
    count: page.spans.length,
    spans: page.spans.map(spanToWire),
    ...(page.next ? { windowing: { next: page.next } } : {}),
  };
}

async function emitTraceRead(
  db: Database,
  reader: Reader,
  type: "traces.fetched" | "traces.queried",
  traceIds: string[],
) {
  if (traceIds.length === 0) return;
  await emitEvent(db, {
    projectId: reader.projectId,
    type,
    attributes: {
      trace_ids: capped(traceIds.map((id) => traceIdToWire(id))),
      count: traceIds.length,
      user_id: reader.userId,
    },
  });
}
