import type { TracingConfig } from "@/server/core/config";
import type { Database } from "@/server/db";
import type { DroppedSpan, SpanRecord } from "../span-record";
import { isObject, setPath } from "../attributes";
import { totalTrace } from "../trace-totals";
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

export interface AcceptOptions {
  now?: number;
  replaceTraces?: string[];
  /**
   * The API key that sent the spans, written on each as `ag.meta.api_key.id` over whatever the
   * span says (a client cannot attribute its spans to another key); null when no key sent them
   * (the playground's session), which removes a value a span carries. Undefined leaves spans as
   * they are (server code recording spans it did not receive).
   */
  apiKeyId?: string | null;
  /** False only for the analytics benchmark's baseline: queue without summing the roll-up. */
  rollups?: boolean;
}

/**
 * The one durable path into the spans store, shared by JSON ingest, OTLP, simple traces and the
 * agent runtime: drops spans whose start time no partition could hold (reported, like parse
 * failures), costs the model calls their producer did not cost, then queues the rest with their
 * analytics roll-up in one committed insert (`rollups: false` only for the benchmark's baseline).
 * Throws TooManyRequestsError when the queue is past its limit.
 */
export async function acceptSpans(
  db: Database,
  config: TracingConfig,
  projectId: string,
  parsed: Accepted,
  options: AcceptOptions = {},
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
  if (options.apiKeyId !== undefined) for (const span of spans) stampApiKey(span, options.apiKeyId);
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
    rollups: options.rollups,
  });
  return { spans, dropped };
}

function stampApiKey(span: SpanRecord, apiKeyId: string | null): void {
  if (apiKeyId !== null) {
    setPath(span.attributes, ["ag", "meta", "api_key", "id"], apiKeyId);
    return;
  }
  const meta = isObject(span.attributes.ag) && isObject(span.attributes.ag.meta) ? span.attributes.ag.meta : undefined;
  if (meta && "api_key" in meta) delete meta.api_key;
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
  for (const trace of byTrace.values()) totalTrace(trace);
  return [...unique.values()];
}
