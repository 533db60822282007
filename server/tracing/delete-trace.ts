import { rawQuery, type Database, type Executor } from "@/server/db";
import { addToBacklog } from "./ingest/backlog";
import { pgArray } from "./query/sql-params";
import type { SpanRecord } from "./span-record";
import { loadTraces } from "./store/read-spans";
import { RollupDelta } from "./store/rollup-delta";
import { upsertRollups } from "./store/rollup-upsert";
import { lockTraces } from "./store/trace-locks";
import { writeSpans } from "./store/write-spans";

const DAY_MS = 86_400_000;

// Locked before the trace (as the ingest worker claims its rows before it locks their traces), so
// a delete and a worker pass take turns instead of deadlocking; rows a worker holds are waited for.
const QUEUED = `select id::text as id, payload, replace_traces::text as replace_traces from span_ingest
  where project_id = $1::uuid and $2::uuid = any(trace_ids) order by id for update`;
const DROP_ROW = `delete from span_ingest where id = $1::bigint`;
// The row's roll-up is cleared: the worker then sums the spans left (its slow path) instead of
// adding a sum that still counts the deleted trace.
const REWRITE_ROW = `update span_ingest set payload = $2::text, span_count = $3::int, trace_ids = $4::text::uuid[],
  start_days = $5::text::int[], replace_traces = $6::text::uuid[], rollup = null where id = $1::bigint`;

type SpanLink = { trace_id: string; span_id: string };

export interface DeletedTrace {
  /** The trace's spans that were removed, stored (oldest first) or still queued, each once. */
  spans: SpanLink[];
}

/**
 * Deletes a trace now, in one transaction: its stored spans (with the analytics roll-up), and its
 * spans still queued for the ingest worker, so an answer of "deleted" is read-your-writes: the next
 * read finds nothing and a second delete finds nothing to delete. Spans ingested after this call
 * are a new write and are stored as usual.
 */
export async function deleteTraceNow(db: Database, projectId: string, traceId: string): Promise<DeletedTrace> {
  let unqueued: SpanLink[] = [];
  const stored = await db.transaction(async (tx) => {
    unqueued = await dropQueuedSpans(tx, projectId, traceId);
    await lockTraces(tx, [{ projectId, traceId }]);
    const spans = (await loadTraces(tx, projectId, [traceId])).get(traceId) ?? [];
    if (spans.length > 0) {
      const rollups = new RollupDelta();
      await writeSpans(tx, projectId, [], new Set([traceId]), rollups);
      await upsertRollups(tx, rollups);
    }
    return spans.map((s): SpanLink => ({ trace_id: s.trace_id, span_id: s.span_id }));
  });
  if (unqueued.length > 0) addToBacklog(db, -unqueued.length);
  const seen = new Set(stored.map((s) => s.span_id));
  return { spans: [...stored, ...unqueued.filter((s) => !seen.has(s.span_id) && seen.add(s.span_id))] };
}

/** Removes the trace from every queued upload; returns the queued spans that went with it. */
async function dropQueuedSpans(tx: Executor, projectId: string, traceId: string): Promise<SpanLink[]> {
  const rows = await rawQuery<{ id: string; payload: string; replace_traces: string | null }>(tx, QUEUED, [
    projectId,
    traceId,
  ]);
  const removed: SpanLink[] = [];
  for (const row of rows) {
    const spans = JSON.parse(row.payload) as SpanRecord[];
    const kept = spans.filter((s) => s.trace_id !== traceId);
    for (const s of spans) if (s.trace_id === traceId) removed.push({ trace_id: s.trace_id, span_id: s.span_id });
    const replace = parseUuidArray(row.replace_traces).filter((t) => t !== traceId);
    if (kept.length === 0 && replace.length === 0) {
      await rawQuery(tx, DROP_ROW, [row.id]);
      continue;
    }
    const traceIds = [...new Set([...kept.map((s) => s.trace_id), ...replace])];
    const days = [...new Set(kept.map((s) => Math.floor(Date.parse(s.start_time) / DAY_MS)))];
    await rawQuery(tx, REWRITE_ROW, [
      row.id,
      JSON.stringify(kept),
      kept.length,
      pgArray(traceIds),
      `{${days.join(",")}}`,
      replace.length > 0 ? pgArray(replace) : null,
    ]);
  }
  return removed;
}

/** PostgreSQL's text form of a uuid[] (`{a,b}`), or null. */
function parseUuidArray(text: string | null): string[] {
  if (!text) return [];
  const inner = text.slice(1, -1);
  return inner === "" ? [] : inner.split(",");
}
