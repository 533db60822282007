import { processWide } from "@/server/core/process-wide";
import { rawQuery, type Database } from "@/server/db";

/** How long a measured backlog is trusted: ingest checks it on every request. */
const FRESH_MS = 250;

interface BacklogState {
  spans: number;
  measuredAt: number;
  pending?: Promise<number>;
}

const state = processWide("tracing.backlog", (): BacklogState => ({ spans: 0, measuredAt: 0 }));

/** Spans accepted but not yet processed (rows set aside after repeated failures excluded), at most FRESH_MS old. */
export async function ingestBacklog(db: Database, now = Date.now()): Promise<number> {
  const s = state(db);
  if (now - s.measuredAt < FRESH_MS) return s.spans;
  s.pending ??= rawQuery<{ spans: string | number }>(
    db,
    `select coalesce(sum(span_count), 0)::bigint as spans from span_ingest where attempts < ${MAX_ATTEMPTS}`,
  )
    .then((rows) => {
      s.spans = Number(rows[0]?.spans ?? 0);
      s.measuredAt = Date.now();
      return s.spans;
    })
    .finally(() => {
      s.pending = undefined;
    });
  return s.pending;
}

/** Counts a just-accepted (positive) or just-processed (negative) batch into the cached figure until the next measurement. */
export function addToBacklog(db: Database, spans: number): void {
  const s = state(db);
  s.spans = Math.max(0, s.spans + spans);
}

/** A row whose processing failed this many times is set aside (kept, not retried, reported). */
export const MAX_ATTEMPTS = 5;
