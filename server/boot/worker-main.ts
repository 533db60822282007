/**
 * `npm run worker`: background work in its own process, so app and worker instances scale apart
 * on one PostgreSQL. It migrates, starts every registered worker and stops them on SIGINT/SIGTERM.
 */
import { loadConfig } from "@/server/core/config";
import { logger } from "@/server/core/logger";
import { migrateDatabase, openDatabase } from "@/server/db";
import { createSecretBox } from "@/server/encryption";
import { PROJECT_SETUPS } from "./project-setups";
import { startBackgroundWorkers } from "./workers";

const config = loadConfig();
const handle = await openDatabase({ url: config.databaseUrl, pgliteDir: config.pgliteDir });
await migrateDatabase(handle);
const secrets = await createSecretBox(config, handle.db);
const running = startBackgroundWorkers({
  db: handle.db,
  dbKind: handle.kind,
  config,
  secrets,
  projectSetups: PROJECT_SETUPS,
  now: () => new Date(),
});
logger.info("worker process ready");

async function shutdown(signal: string): Promise<void> {
  logger.info({ signal }, "worker process stopping");
  await Promise.all(running.map((r) => r.stop()));
  await handle.close();
  process.exit(0);
}
process.on("SIGINT", () => void shutdown("SIGINT"));
process.on("SIGTERM", () => void shutdown("SIGTERM"));
