import { a2aPushWorker } from "@/server/a2a";
import { runSweepWorker } from "@/server/agent-runs";
import { rollupCompactionWorker } from "@/server/analytics";
import { automationWorker } from "@/server/automations";
import { canaryWorker } from "@/server/canaries";
import { logger } from "@/server/core/logger";
import { processWide } from "@/server/core/process-wide";
import type { AppContext } from "@/server/core/app-context";
import { evaluationWorker } from "@/server/evaluations";
import { optimizationWorker } from "@/server/improve";
import { triageWorker } from "@/server/improve";
import { monitorWorker } from "@/server/monitors";
import { retentionWorkers } from "@/server/retention";
import { spanIngestWorker } from "@/server/tracing";
import { webhookWorker } from "@/server/webhooks";
import type { BackgroundWorker, RunningWorker } from "@/server/worker";
import { statisticsWorker } from "./statistics-worker";

/** Every area's background worker; the worker process, the app process and the cron route run this list. */
export const BACKGROUND_WORKERS: BackgroundWorker[] = [
  spanIngestWorker,
  webhookWorker,
  a2aPushWorker,
  evaluationWorker,
  statisticsWorker,
  runSweepWorker,
  automationWorker,
  canaryWorker,
  optimizationWorker,
  monitorWorker,
  triageWorker,
  ...retentionWorkers,
  rollupCompactionWorker,
];

/** Starts every registered worker; the app process does this unless WORKERS=off. */
export function startBackgroundWorkers(app: AppContext): RunningWorker[] {
  const running = BACKGROUND_WORKERS.map((worker) => worker.start(app));
  if (running.length) logger.info({ workers: BACKGROUND_WORKERS.map((w) => w.name) }, "background workers started");
  return running;
}

/**
 * Starts the workers once per app: under the production server both server.ts and Next.js's
 * instrumentation hook ask, and server.ts must hold the same handles to stop them on shutdown.
 */
export const backgroundWorkersFor = processWide<AppContext, RunningWorker[]>(
  "background-workers",
  startBackgroundWorkers,
);

/**
 * One bounded pass of every worker, one after another (the cron route on serverless hosts).
 * A worker that fails does not stop the others; its error is reported by name.
 */
export async function drainBackgroundWorkers(
  app: AppContext,
  limit: number,
): Promise<Record<string, { handled: number } | { error: string }>> {
  const results: Record<string, { handled: number } | { error: string }> = {};
  for (const worker of BACKGROUND_WORKERS) {
    try {
      results[worker.name] = { handled: await worker.drain(app, limit) };
    } catch (error) {
      logger.error({ err: error, worker: worker.name }, "background drain failed");
      results[worker.name] = { error: "the drain failed; see the server log" };
    }
  }
  return results;
}
