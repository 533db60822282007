import { TooManyRequestsError } from "@/server/core/errors";
import { storableJson } from "@/server/core/storable-text";
import { rawQuery, type Database } from "@/server/db";
import { redactorFor } from "@/server/redaction";
import { pgArray } from "../query/sql-params";
import { RollupDelta } from "../store/rollup-delta";
import type { SpanRecord } from "../span-record";
import { addToBacklog, ingestBacklog } from "./backlog";
import { INGEST_CHANNEL, wakeIngestWorkers } from "./wake";

export interface EnqueueOptions {
  /** Past this many waiting spans the batch is refused with 429. */
  maxBacklogSpans: number;
  /** Traces whose stored spans not in this batch are deleted when it is written (PUT, DELETE /tracing/traces/{id}). */
  replaceTraces?: string[];
  /** False only for the analytics benchmark's baseline: queue the spans without their roll-up. */
  rollups?: boolean;
}

/** Seconds a refused client is told to wait: long enough for a worker pass, short enough to keep data flowing. */
const RETRY_AFTER_SECONDS = 2;
const DAY_MS = 86_400_000;

const INSERT = `with queued as (
    insert into span_ingest (project_id, span_count, payload, trace_ids, start_days, replace_traces, rollup)
    values ($1::uuid, $2::int, $3::text, $4::text::uuid[], $5::text::int[], $6::text::uuid[], $7::text) returning id)
  select id, pg_notify('${INGEST_CHANNEL}', '') from queued`;

/**
 * Durably queues parsed spans: one row in `span_ingest`, committed before this resolves, with a
 * NOTIFY in the same statement (delivered at commit) for workers in other processes. The caller
 * answers 202 only after this returns, so every acknowledged span survives a crash. Text the
 * database could not store (NUL, lone surrogates) is made storable here, the one door every span
 * (JSON ingest, OTLP, an agent run's trace) goes through, so no span fails later for it.
 */
export async function enqueueSpans(
  db: Database,
  projectId: string,
  spans: SpanRecord[],
  options: EnqueueOptions,
): Promise<void> {
  const replace = options.replaceTraces ?? [];
  if (spans.length === 0 && replace.length === 0) return;
  // Without a limit (an agent run's own trace) nothing is refused: no need to measure the backlog,
  // a query over the whole queue every FRESH_MS on the busiest path.
  const backlog = Number.isFinite(options.maxBacklogSpans) ? await ingestBacklog(db) : 0;
  if (backlog + spans.length > options.maxBacklogSpans && backlog > 0) {
    throw new TooManyRequestsError(
      `The span ingest queue is full (${backlog} spans waiting, limit ${options.maxBacklogSpans}); retry after ${RETRY_AFTER_SECONDS} s`,
      RETRY_AFTER_SECONDS,
      "ingest_backlog_full",
    );
  }
  spans = await redactSpans(db, projectId, spans);
  // The analytics roll-up of the spans as stored (redacted), summed while they are parsed, so the
  // worker's fast path only adds up a few sums per row (store/rollup-delta.ts).
  let rollup: string | null = null;
  if (options.rollups !== false) {
    const delta = new RollupDelta();
    for (const span of spans) delta.addSpan(projectId, span, 1);
    rollup = delta.toJson();
  }
  const traceIds = [...new Set([...spans.map((s) => s.trace_id), ...replace])];
  const days = [...new Set(spans.map((s) => Math.floor(Date.parse(s.start_time) / DAY_MS)))];
  await rawQuery(db, INSERT, [
    projectId,
    spans.length,
    storableJson(spans),
    pgArray(traceIds),
    `{${days.join(",")}}`,
    replace.length > 0 ? pgArray(replace) : null,
    rollup,
  ]);
  addToBacklog(db, spans.length);
  wakeIngestWorkers(db);
}

/**
 * The spans as the project's redaction rules store them: every text a client or a run wrote
 * (name, status message, attributes, events, exception, resource, link and reference attributes);
 * ids, times and kinds are left as they are.
 */
async function redactSpans(db: Database, projectId: string, spans: SpanRecord[]): Promise<SpanRecord[]> {
  const { redactor } = await redactorFor(db, projectId);
  if (!redactor.active) return spans;
  return spans.map((span) => ({
    ...span,
    span_name: redactor.text(span.span_name),
    status_message: span.status_message === null ? null : redactor.text(span.status_message),
    attributes: redactor.value(span.attributes),
    references: redactor.value(span.references),
    links: redactor.value(span.links),
    events: redactor.value(span.events),
    exception: redactor.value(span.exception),
    resource: redactor.value(span.resource),
  }));
}
