/**
 * `npm run worker`: background work in its own process, so app and worker instances scale apart
 * on one PostgreSQL. It migrates, starts every registered worker and stops them on SIGINT/SIGTERM.
 */
import { loadConfig } from "@/server/core/config";
import { logger } from "@/server/core/logger";
import { migrateDatabase, openDatabase } from "@/server/db";
import { createSecretBox } from "@/server/secrets";
import { BACKGROUND_WORKERS } from "./registry";

const config = loadConfig();
const handle = await openDatabase({ url: config.databaseUrl, pgliteDir: config.pgliteDir });
await migrateDatabase(handle);
const secrets = await createSecretBox(config, handle.db);
const running = BACKGROUND_WORKERS.map((worker) => worker.start({ db: handle.db, dbKind: handle.kind, config, secrets }));
logger.info({ workers: BACKGROUND_WORKERS.map((w) => w.name) }, "worker process ready");

async function shutdown(signal: string): Promise<void> {
  logger.info({ signal }, "worker process stopping");
  await Promise.all(running.map((r) => r.stop()));
  await handle.close();
  process.exit(0);
}
process.on("SIGINT", () => void shutdown("SIGINT"));
process.on("SIGTERM", () => void shutdown("SIGTERM"));
