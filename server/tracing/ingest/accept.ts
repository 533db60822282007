import type { TracingConfig } from "@/server/core/config";
import type { Database } from "@/server/db";
import type { DroppedSpan, SpanRecord } from "../span-record";
import { rollUpTrace } from "../rollup";
import { enqueueSpans } from "./enqueue";
import { projectPrices } from "@/server/pricing";
import { costSpan, needsCost } from "../span-costs";

const DAY_MS = 86_400_000;
/** Spans may start at most this far in the future (clock skew); later ones would need partitions years ahead. */
export const MAX_FUTURE_MS = 7 * DAY_MS;
/** Nothing before this is a real span time (a time parsed from a wrong unit, say). */
export const EARLIEST_MS = Date.UTC(2000, 0, 1);

export interface Accepted {
  spans: SpanRecord[];
  dropped: DroppedSpan[];
}

/**
 * The one durable path into the spans store, shared by JSON ingest, OTLP, simple traces and the
 * agent runtime: drops spans whose start time no partition could hold (reported, like parse
 * failures), costs the model calls their producer did not cost, then queues the rest in one
 * committed insert. Throws TooManyRequestsError when the
 * queue is past its limit.
 */
export async function acceptSpans(
  db: Database,
  config: TracingConfig,
  projectId: string,
  parsed: Accepted,
  options: { now?: number; replaceTraces?: string[] } = {},
): Promise<Accepted> {
  const now = options.now ?? Date.now();
  const oldest = Math.max(EARLIEST_MS, config.retentionDays ? now - config.retentionDays * DAY_MS : EARLIEST_MS);
  const spans: SpanRecord[] = [];
  const dropped = [...parsed.dropped];
  for (const span of parsed.spans) {
    const start = Date.parse(span.start_time);
    const reason =
      start > now + MAX_FUTURE_MS
        ? "start_time is more than 7 days in the future"
        : start < oldest
          ? config.retentionDays && start >= EARLIEST_MS
            ? `start_time is older than the retention period (${config.retentionDays} days)`
            : "start_time is before the year 2000"
          : undefined;
    if (reason) dropped.push({ span_id: span.span_id.replaceAll("-", "").slice(-16), reason });
    else spans.push(span);
  }
  // The project's prices are read only when a span needs them, and as they are now: a price set
  // later does not change what these spans cost.
  const uncosted = spans.filter(needsCost);
  if (uncosted.length > 0) {
    const prices = await projectPrices(db, projectId);
    for (const span of uncosted) costSpan(span, prices);
  }
  const queued = withinRequest(spans);
  await enqueueSpans(db, projectId, queued, {
    maxBacklogSpans: config.maxBacklogSpans,
    replaceTraces: options.replaceTraces,
  });
  return { spans, dropped };
}

/**
 * What the worker's fast path (a trace with no stored spans) writes as is: one copy per span
 * (the last one sent wins) with totals already rolled up within the request.
 */
function withinRequest(spans: SpanRecord[]): SpanRecord[] {
  const unique = new Map<string, SpanRecord>();
  for (const span of spans) unique.set(`${span.trace_id}/${span.span_id}`, span);
  const byTrace = new Map<string, SpanRecord[]>();
  for (const span of unique.values()) {
    const list = byTrace.get(span.trace_id);
    if (list) list.push(span);
    else byTrace.set(span.trace_id, [span]);
  }
  for (const trace of byTrace.values()) rollUpTrace(trace);
  return [...unique.values()];
}
