import type { Server } from "node:http";
import { afterResponseSettled } from "./after-response";
import type { App } from "./app";
import { logger } from "@/server/core/logger";
import { eventBatcherFor } from "@/server/events/insert-batcher";
import { externalSessions } from "@/server/agent-runs";
import type { RunningWorker } from "@/server/worker";

/** How long requests in flight (a long agent stream, say) may run on after SIGTERM. */
const DRAIN_REQUESTS_MS = 10_000;

/**
 * The order matters: stop taking requests and let those in flight finish (they may still queue
 * read events), end the warm Claude Code processes (and remove their directories), then write
 * every queued read event, then stop the workers (which may be processing what was just
 * written) and let a drain started after a last answer end, and only then close the database.
 */
export async function shutDown(server: Server, app: App, workers: RunningWorker[]): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const late = setTimeout(() => {
    logger.warn("requests still running after the grace period; closing their connections");
    server.closeAllConnections();
  }, DRAIN_REQUESTS_MS);
  await closed;
  clearTimeout(late);
  await externalSessions(app.context.config).closeAll();
  const batcher = eventBatcherFor(app.context.db);
  const backlog = batcher.backlog;
  await batcher.drain();
  await Promise.all(workers.map((worker) => worker.stop()));
  // WORKERS=after-response: a drain a last answer started finishes on the open database.
  await afterResponseSettled(app.context);
  await app.close();
  logger.info({ readEventsWritten: backlog }, "server stopped");
}
