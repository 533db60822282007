/** `npm run db:migrate`: applies the committed migrations to DATABASE_URL (or the embedded database) and exits. */
import { loadConfig } from "@/server/core/config";
import { migrateDatabase, openDatabase } from "./index";

const config = loadConfig();
const handle = await openDatabase({
  url: config.databaseUrl,
  pooler: config.databasePooler,
  directUrl: config.databaseDirectUrl,
  pgliteDir: config.pgliteDir,
});
try {
  await migrateDatabase(handle);
  process.stdout.write(`Migrations applied (${handle.kind}).\n`);
} finally {
  await handle.close();
}
