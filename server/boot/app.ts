import { ensureDefaultAccount } from "@/server/auth";
import { loadConfig, type Config } from "@/server/core/config";
import { logger } from "@/server/core/logger";
import { migrateDatabase, notificationsOf, openDatabase } from "@/server/db";
import { createSecretBox } from "@/server/encryption";
import type { AppContext } from "@/server/core/app-context";
import { createApiDoors, type NodeRequestHandler, type WebDoor } from "./api-doors";
import { appContextOf } from "./app-context";
import { PROJECT_SETUPS } from "./project-setups";

export interface App {
  context: AppContext;
  /** The Next.js door (app/api/[...path]/route.ts), given Next.js's `after()`. */
  handle: WebDoor;
  /** The node:http door (server.ts): the same routes without web Request/Response on the hot path. */
  serve: NodeRequestHandler;
  /** Closes the database pool (graceful shutdown). */
  close(): Promise<void>;
}

/** Opens the database, migrates it, and on an empty database creates the default account. */
export async function bootApp(config: Config = loadConfig()): Promise<App> {
  const handle = await openDatabase({
    url: config.databaseUrl,
    pooler: config.databasePooler,
    directUrl: config.databaseDirectUrl,
    pgliteDir: config.pgliteDir,
    replicaUrls: config.databaseReplicaUrls,
    replicaMaxLagMs: config.replicaMaxLagMs,
  });
  await migrateDatabase(handle);
  const secrets = await createSecretBox(config, handle.db);
  const context = appContextOf(handle, config, secrets);
  const account = await ensureDefaultAccount(handle.db, PROJECT_SETUPS);
  if (account) announceDefaultAccount(account.project.name, account.secret, listenOrigin(config));
  logger.info({ database: handle.kind, pooler: handle.pooler, direct_url: Boolean(handle.directUrl) }, "app ready");
  if (notificationsOf(handle.db).kind === "unavailable") {
    logger.warn(
      { cache_ttl_ms: config.cacheTtlWithoutListenMs },
      "DATABASE_URL is a transaction pooler and DATABASE_DIRECT_URL is unset: no LISTEN, so workers poll (about once a second) and the revision and API key caches keep an answer at most cache_ttl_ms",
    );
  }
  const doors = createApiDoors(context);
  return { context, handle: doors.web, serve: doors.node, close: () => handle.close() };
}

/** Where this server is reached: PUBLIC_URL, else the address `next dev` or server.ts listens on. */
export function listenOrigin(config: Config): string {
  if (config.publicUrl) return config.publicUrl;
  if (process.env.__NEXT_PRIVATE_ORIGIN) return process.env.__NEXT_PRIVATE_ORIGIN;
  // HOST, not HOSTNAME: a container sets HOSTNAME to its own id.
  return `http://${process.env.HOST ?? "127.0.0.1"}:${process.env.PORT ?? "3000"}`;
}

function announceDefaultAccount(projectName: string, secret: string, origin: string): void {
  process.stdout.write(defaultAccountBanner(projectName, secret, origin));
}

/**
 * What the first start of an empty database prints: the only time the key is shown, and only
 * once in it (a log collector keeps every copy it sees).
 */
export function defaultAccountBanner(projectName: string, secret: string, origin: string): string {
  return (
    [
      "",
      `  Created the default project "${projectName}" with an API key (shown only now):`,
      "",
      `    ${secret}`,
      "",
      `  Try: curl -H "Authorization: ApiKey <the key above>" ${origin}/api/keys`,
      "",
      `  Open ${origin} to create the owner account of the playground.`,
      "",
    ].join("\n") + "\n"
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
