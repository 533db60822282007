import { logger } from "@/server/core/logger";
import type { AppContext } from "@/server/core/app-context";
import { listen, type BackgroundWorker, type RunningWorker } from "@/server/worker";
import { createPartitionsAhead, dropExpiredPartitions } from "../store/partitions";
import { anyQueued, processIngestBatch, type BatchResult } from "./process-batch";
import { INGEST_CHANNEL, onIngestWake } from "./wake";

/** Ingest rows per transaction: requests carry up to thousands of spans each. */
const ROWS_PER_PASS = 64;
/** Fallback poll when no notification arrives (another process on PGlite cannot notify). */
const POLL_MS = 1000;
/** Partitions ahead and retention are checked this often. */
const MAINTENANCE_MS = 15 * 60_000;

export interface IngestWorkerOptions {
  rowsPerPass?: number;
  /** Called after every pass that processed something (tests count rows per worker). */
  onBatch?: (result: BatchResult) => void;
}

/**
 * The span ingest worker: claims queued rows, writes their spans, and sleeps until a NOTIFY
 * (PostgreSQL), an in-process wake-up, or the poll interval. Several may run against one
 * PostgreSQL, in one process or many.
 */
export function startIngestWorker(app: AppContext, options: IngestWorkerOptions = {}): RunningWorker {
  const { db, dbKind: kind, config } = app;
  let stopped = false;
  let wake: (() => void) | undefined;
  let woken = false;
  const signal = () => {
    woken = true;
    wake?.();
  };
  const offLocal = onIngestWake(db, signal);
  let unlisten: (() => Promise<void>) | undefined;
  let lastMaintenance = 0;

  const maintain = async () => {
    if (Date.now() - lastMaintenance < MAINTENANCE_MS) return;
    lastMaintenance = Date.now();
    await createPartitionsAhead(db, kind, config.tracing.partitionPeriod);
    if (config.tracing.retentionDays) {
      const dropped = await dropExpiredPartitions(db, config.tracing.retentionDays);
      if (dropped.length > 0) logger.info({ dropped }, "span partitions past retention dropped");
    }
  };

  const loop = (async () => {
    // PGlite is woken in-process (onIngestWake); PostgreSQL by the NOTIFY sent with the insert.
    const listening = kind === "postgres" ? listen(db, INGEST_CHANNEL, signal, signal) : Promise.resolve(undefined);
    unlisten = await listening.catch((error: unknown) => {
      logger.warn({ err: error }, "span ingest worker cannot LISTEN; polling only");
      return undefined;
    });
    // A poll after a pass that found nothing, with no wake-up since, first looks with one
    // statement outside any transaction: an idle poll is one round trip, no BEGIN and COMMIT.
    let look = false;
    while (!stopped) {
      const quiet = look && !woken;
      woken = false;
      look = true;
      try {
        await maintain();
        const result =
          quiet && !(await anyQueued(db))
            ? undefined
            : await processIngestBatch(db, kind, {
                rows: options.rowsPerPass ?? ROWS_PER_PASS,
                period: config.tracing.partitionPeriod,
              });
        if (result && (result.rowIds.length > 0 || result.failed.length > 0)) {
          options.onBatch?.(result);
          if (result.failed.length > 0) logger.warn({ failed: result.failed }, "span ingest rows failed; will retry");
          if (result.rowIds.length > 0) {
            look = false;
            continue;
          }
        }
      } catch (error) {
        if (stopped) break;
        logger.error({ err: error }, "span ingest pass failed");
      }
      if (stopped || woken) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, POLL_MS);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = undefined;
    }
  })();

  return {
    async stop() {
      stopped = true;
      wake?.();
      offLocal();
      await loop;
      await unlisten?.();
    },
  };
}

/** Drains the queue: passes until a pass finds nothing (or `limit` spans are written). */
export async function drainIngestQueue(app: AppContext, limit = Number.POSITIVE_INFINITY): Promise<number> {
  let spans = 0;
  while (spans < limit) {
    const result = await processIngestBatch(app.db, app.dbKind, {
      rows: ROWS_PER_PASS,
      period: app.config.tracing.partitionPeriod,
    });
    if (result.rowIds.length === 0) break;
    spans += result.spans;
  }
  return spans;
}

export const spanIngestWorker: BackgroundWorker = {
  name: "span-ingest",
  start: (app) => startIngestWorker(app),
  drain: (app, limit) => drainIngestQueue(app, limit),
};
