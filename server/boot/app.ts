import { ensureDefaultAccount } from "@/server/auth";
import { loadConfig, type Config } from "@/server/core/config";
import { logger } from "@/server/core/logger";
import { migrateDatabase, openDatabase } from "@/server/db";
import { createSecretBox } from "@/server/encryption";
import type { AppContext } from "@/server/core/app-context";
import type { RequestHandler } from "@/server/http/router";
import { createApiDoors, type NodeRequestHandler } from "./api-doors";
import { appContextOf } from "./app-context";
import { PROJECT_SETUPS } from "./project-setups";

export interface App {
  context: AppContext;
  /** The Next.js door (app/api/[...path]/route.ts). */
  handle: RequestHandler;
  /** The node:http door (server.ts): the same routes without web Request/Response on the hot path. */
  serve: NodeRequestHandler;
  /** Closes the database pool (graceful shutdown). */
  close(): Promise<void>;
}

/** Opens the database, migrates it, and on an empty database creates the default account. */
export async function bootApp(config: Config = loadConfig()): Promise<App> {
  const handle = await openDatabase({ url: config.databaseUrl, pgliteDir: config.pgliteDir });
  await migrateDatabase(handle);
  const secrets = await createSecretBox(config, handle.db);
  const context = appContextOf(handle, config, secrets);
  const account = await ensureDefaultAccount(handle.db, PROJECT_SETUPS);
  if (account) announceDefaultAccount(account.project.name, account.secret, listenOrigin(config));
  logger.info({ database: handle.kind }, "app ready");
  const doors = createApiDoors(context);
  return { context, handle: doors.web, serve: doors.node, close: () => handle.close() };
}

/** Where this server is reached: PUBLIC_URL, else the address `next dev` or server.ts listens on. */
function listenOrigin(config: Config): string {
  if (config.publicUrl) return config.publicUrl;
  if (process.env.__NEXT_PRIVATE_ORIGIN) return process.env.__NEXT_PRIVATE_ORIGIN;
  // HOST, not HOSTNAME: a container sets HOSTNAME to its own id.
  return `http://${process.env.HOST ?? "127.0.0.1"}:${process.env.PORT ?? "3000"}`;
}

function announceDefaultAccount(projectName: string, secret: string, origin: string): void {
  // Printed once, on the first start of an empty database: the only time this secret is shown.
  process.stdout.write(
    [
      "",
      `  Created the default project "${projectName}" with an API key (shown only now):`,
      "",
      `    ${secret}`,
      "",
      `  Try: curl -H "Authorization: ApiKey ${secret}" ${origin}/api/keys`,
      "",
      `  Open ${origin} to create the owner account of the playground.`,
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
