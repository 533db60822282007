/**
 * `npm run worker`: background work in its own process, so app and worker instances scale apart
 * on one PostgreSQL. It migrates, starts every registered worker and stops them on SIGINT/SIGTERM.
 * Run with `--max-semi-space-size=64` (package.json), as `npm start` is (scripts/start.mjs): its
 * evaluation cells are agent turns whose allocations die young, and with V8's default young
 * generation a profile of the evaluations bench spent 0.5 to 0.7 ms per turn in collections on
 * the main thread, 0.3 with 64 MB.
 */
import { loadConfig } from "@/server/core/config";
import { appContextOf } from "./app-context";
import { logger } from "@/server/core/logger";
import { migrateDatabase, openDatabase } from "@/server/db";
import { createSecretBox } from "@/server/encryption";
import { exitOnStartupRefusal } from "./startup-refusal";
import { startBackgroundWorkers } from "./workers";

const config = loadConfig();
const handle = await openDatabase({
  url: config.databaseUrl,
  pooler: config.databasePooler,
  directUrl: config.databaseDirectUrl,
  pgliteDir: config.pgliteDir,
});
await migrateDatabase(handle);
const secrets = await createSecretBox(config, handle.db).catch(exitOnStartupRefusal);
const running = startBackgroundWorkers(appContextOf(handle, config, secrets));
logger.info("worker process ready");

async function shutdown(signal: string): Promise<void> {
  logger.info({ signal }, "worker process stopping");
  await Promise.all(running.map((r) => r.stop()));
  await handle.close();
  process.exit(0);
}
process.on("SIGINT", () => void shutdown("SIGINT"));
process.on("SIGTERM", () => void shutdown("SIGTERM"));
