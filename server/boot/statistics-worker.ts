import { logger } from "@/server/core/logger";
import { analyzeGrownTables } from "@/server/db/analyze-grown-tables";
import { EVENTS_CHANNEL } from "@/server/events/notify";
import type { AppContext } from "@/server/core/app-context";
import { INGEST_CHANNEL } from "@/server/tracing/ingest/wake";
import { listen, startWakeLoop, type BackgroundWorker, type RunningWorker } from "@/server/worker";

/**
 * Bulk writes notify one of these channels: change and read-event batches a webhook takes, every
 * span upload (the rest is caught by the idle poll).
 * (This worker sits in the composition root because it listens to two areas' channels for a
 * database-level job.)
 */
const WRITE_CHANNELS = [EVENTS_CHANNEL, INGEST_CHANNEL];
/** Least time between two checks under a stream of writes: one catalog query a second at most. */
const MIN_INTERVAL_MS = 1_000;
/** Writes that notify nothing (deliveries, testcases), and counts the database had not yet published at the last check, are caught by this poll. */
const IDLE_MS = 5_000;

/**
 * Keeps planner statistics current where autovacuum is off or behind (see server/db/README.md,
 * "Plans and statistics"): after writes, at most once a second, the bulk tables that grew past
 * autovacuum's analyze threshold are analyzed.
 */
export function startStatisticsWorker(
  app: AppContext,
  /** Told the tables each pass analyzed (tests await a pass with it instead of polling the catalog). */
  onAnalyzed?: (tables: string[]) => void,
): RunningWorker {
  const loop = startWakeLoop(
    "statistics",
    async () => {
      const analyzed = await analyzeGrownTables(app.db);
      if (analyzed.length > 0) {
        logger.debug({ tables: analyzed }, "tables analyzed");
        onAnalyzed?.(analyzed);
      }
      return 0;
    },
    IDLE_MS,
    MIN_INTERVAL_MS,
  );
  const listeners = Promise.all(WRITE_CHANNELS.map((channel) => listen(app.db, channel, loop.wake, loop.wake))).catch(
    (error: unknown) => {
      logger.warn({ err: error }, "statistics worker cannot LISTEN; polling only");
      return [];
    },
  );
  return {
    async stop() {
      await Promise.all((await listeners).map((unlisten) => unlisten()));
      await loop.stop();
    },
  };
}

export const statisticsWorker: BackgroundWorker = {
  name: "statistics",
  start: (app) => startStatisticsWorker(app),
  drain: async (app) => (await analyzeGrownTables(app.db)).length,
};
