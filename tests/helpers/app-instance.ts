import { createApiDoors } from "@/server/boot";
import type { Config } from "@/server/core/config";
import { openDatabase, type DatabaseHandle, type PoolerMode } from "@/server/db";
import type { AppContext } from "@/server/core/app-context";
import type { TestApp, TestResponse } from "./test-app";

export interface AppInstance {
  context: AppContext;
  call<T = any>(
    method: string,
    path: string,
    options?: { key?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<TestResponse<T> & { text: string }>;
  /** The raw response, for streams. */
  open(
    path: string,
    options: { key: string; headers?: Record<string, string>; signal?: AbortSignal },
  ): Promise<Response>;
  close(): Promise<void>;
}

/**
 * Another app process on the test app's database, as a second server would run: its own pool
 * and listener on PostgreSQL (the same embedded database on PGlite, which is one process's), its
 * own caches, its own route table. `database` overrides how it reaches PostgreSQL (a transaction
 * pooler without a direct URL, say) and may give it read replicas.
 */
export async function anotherInstance(
  t: TestApp,
  config: Partial<Config> = {},
  database: { pooler?: PoolerMode; directUrl?: string | null; replicaUrls?: string[] } = {},
): Promise<AppInstance> {
  const own: DatabaseHandle | undefined = t.database.url
    ? await openDatabase({
        url: t.database.url,
        pooler: database.pooler ?? t.database.pooler,
        directUrl: database.directUrl === null ? undefined : (database.directUrl ?? t.database.directUrl),
        maxConnections: 5,
        replicaUrls: database.replicaUrls,
        replicaMaxLagMs: config.replicaMaxLagMs,
      })
    : undefined;
  const context: AppContext = { ...t.context, db: own?.db ?? t.context.db, config: { ...t.context.config, ...config } };
  const { web } = createApiDoors(context);
  return {
    context,
    async call(method, path, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      if (options.key) headers.authorization = `ApiKey ${options.key}`;
      if (options.body !== undefined) headers["content-type"] = "application/json";
      const response = await web(
        new Request(`http://localhost${path}`, {
          method,
          headers,
          body: options.body === undefined ? undefined : JSON.stringify(options.body),
        }),
      );
      const text = await response.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // Streams stay text.
      }
      return { status: response.status, headers: response.headers, body: body as never, text };
    },
    open: (path, options) =>
      web(
        new Request(`http://localhost${path}`, {
          headers: { authorization: `ApiKey ${options.key}`, ...options.headers },
          signal: options.signal,
        }),
      ),
    close: async () => {
      await own?.close();
    },
  };
}
