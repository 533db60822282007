import { TooManyRequestsError } from "@/server/core/errors";
import { rawQuery, type Database } from "@/server/db";
import type { SpanRecord } from "../span-record";
import { addToBacklog, ingestBacklog } from "./backlog";
import { INGEST_CHANNEL, wakeIngestWorkers } from "./wake";

export interface EnqueueOptions {
  /** Past this many waiting spans the batch is refused with 429. */
  maxBacklogSpans: number;
  /** Traces whose stored spans not in this batch are deleted when it is written (PUT /tracing/traces/{id}). */
  replaceTraces?: string[];
}

/** Seconds a refused client is told to wait: long enough for a worker pass, short enough to keep data flowing. */
const RETRY_AFTER_SECONDS = 2;

/**
 * Durably queues parsed spans: one row in `span_ingest`, committed before this resolves, with a
 * NOTIFY in the same statement (delivered at commit) for workers in other processes. The caller
 * answers 202 only after this returns, so every acknowledged span survives a crash.
 */
export async function enqueueSpans(db: Database, projectId: string, spans: SpanRecord[], options: EnqueueOptions): Promise<void> {
  if (spans.length === 0 && !options.replaceTraces?.length) return;
  const backlog = await ingestBacklog(db);
  if (backlog + spans.length > options.maxBacklogSpans && backlog > 0) {
    throw new TooManyRequestsError(
      `The span ingest queue is full (${backlog} spans waiting, limit ${options.maxBacklogSpans}); retry after ${RETRY_AFTER_SECONDS} s`,
      RETRY_AFTER_SECONDS,
      "ingest_backlog_full",
    );
  }
  await rawQuery(
    db,
    `with queued as (insert into span_ingest (project_id, span_count, payload) values ($1::uuid, $2::int, $3::text) returning id)
     select id, pg_notify('${INGEST_CHANNEL}', '') from queued`,
    [projectId, spans.length, JSON.stringify(options.replaceTraces?.length ? { replace_traces: options.replaceTraces, spans } : spans)],
  );
  addToBacklog(db, spans.length);
  wakeIngestWorkers(db);
}
