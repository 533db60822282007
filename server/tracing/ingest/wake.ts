import { processWide } from "@/server/core/process-wide";
import type { Database } from "@/server/db";

/**
 * In-process wake-up of the ingest worker: ingest calls `wakeIngestWorkers` after its row is
 * committed, so a worker in the same process starts at once (PGlite has no second connection to
 * LISTEN on; on PostgreSQL workers in other processes hear the NOTIFY sent with the insert).
 */
const listeners = processWide("tracing.ingest-wake", () => new Set<() => void>());

export function onIngestWake(db: Database, listener: () => void): () => void {
  const set = listeners(db);
  set.add(listener);
  return () => set.delete(listener);
}

export function wakeIngestWorkers(db: Database): void {
  for (const listener of listeners(db)) listener();
}

export const INGEST_CHANNEL = "span_ingest";
