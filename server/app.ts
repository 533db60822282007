import { ensureDefaultAccount } from "@/server/auth";
import { loadConfig, type Config } from "@/server/core/config";
import { logger } from "@/server/core/logger";
import { migrateDatabase, openDatabase } from "@/server/db";
import { createSecretBox } from "@/server/secrets";
import { createApiHandler } from "./api";
import type { AppContext } from "./http/app-context";
import type { RequestHandler } from "./http/router";

export interface App {
  context: AppContext;
  handle: RequestHandler;
}

/** Opens the database, migrates it, and on an empty database creates the default account. */
export async function bootApp(config: Config = loadConfig()): Promise<App> {
  const handle = await openDatabase({ url: config.databaseUrl, pgliteDir: config.pgliteDir });
  await migrateDatabase(handle);
  const secrets = await createSecretBox(config, handle.db);
  const context: AppContext = { db: handle.db, dbKind: handle.kind, config, secrets };
  const account = await ensureDefaultAccount(handle.db);
  if (account) announceDefaultAccount(account.project.name, account.secret);
  logger.info({ database: handle.kind }, "app ready");
  return { context, handle: createApiHandler(context) };
}

function announceDefaultAccount(projectName: string, secret: string): void {
  // Printed once, on the first start of an empty database: the only time this secret is shown.
  process.stdout.write(
    [
      "",
      `  Created the default project "${projectName}" with an API key (shown only now):`,
      "",
      `    ${secret}`,
      "",
      `  Try: curl -H "Authorization: ApiKey ${secret}" http://localhost:3000/api/keys`,
      "",
    ].join("\n") + "\n",
  );
}

// Route bundles and instrumentation may load this module separately; one app per process.
const APP = Symbol.for("agent-service.app");
type GlobalWithApp = typeof globalThis & { [APP]?: Promise<App> };

export function getApp(): Promise<App> {
  const g = globalThis as GlobalWithApp;
  g[APP] ??= bootApp().catch((error) => {
    delete g[APP];
    throw error;
  });
  return g[APP];
}
