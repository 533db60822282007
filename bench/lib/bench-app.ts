import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { createAccount, type Account } from "@/server/auth";
import { appContextOf, createApiHandler, PROJECT_SETUPS } from "@/server/boot";
import type { AppContext } from "@/server/core/app-context";
import { loadConfig } from "@/server/core/config";
import { migrateDatabase, openDatabase, type DatabaseHandle } from "@/server/db";
import { SecretBox, verifySecretKey } from "@/server/encryption";

const LOCAL_POSTGRES = "postgres://postgres@127.0.0.1:5432/test";

/** The app in the bench's own process, on a database of its own, with an account to call its API as. */
export interface BenchApp {
  handle: DatabaseHandle;
  app: AppContext;
  account: Account;
  /** The database's URL and the app's secret key, for worker processes started beside it. */
  databaseUrl: string;
  secretKey: Buffer;
  /** Calls the REST API with the account's key; a status other than 2xx throws with the answer. */
  call(method: string, path: string, body?: unknown): Promise<Record<string, any>>;
  /** Closes the pool and drops the database. */
  close(): Promise<void>;
}

/**
 * A fresh database named `<prefix>_<random>` on DATABASE_URL's server (else the local one),
 * migrated, and the app on it with OpenAI pointed at `modelBaseUrl` and no retries (a bench counts
 * each call once), without an HTTP server: benches that drive the service's functions and its API
 * in one process.
 */
export async function openBenchApp(prefix: string, modelBaseUrl: string): Promise<BenchApp> {
  const serverUrl = process.env.DATABASE_URL || LOCAL_POSTGRES;
  const name = `${prefix}_${randomBytes(4).toString("hex")}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const dropDatabase = async () => {
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  };
  const handle = await openDatabase({ url: url.toString(), maxConnections: 20 }).catch(async (error: unknown) => {
    await dropDatabase();
    throw error;
  });
  const close = async () => {
    await handle.close();
    await dropDatabase();
  };
  try {
    const defaults = loadConfig({});
    const config = {
      ...defaults,
      agentRuns: { ...defaults.agentRuns, maxRetries: 0 },
      providerEnv: { ...defaults.providerEnv, openai: { key: "sk-bench", baseUrl: modelBaseUrl } },
    };
    await migrateDatabase(handle);
    const secretKey = randomBytes(32);
    const secrets = new SecretBox(secretKey);
    await verifySecretKey(handle.db, secrets);
    const app = appContextOf(handle, config, secrets);
    const api = createApiHandler(app);
    const account = await createAccount(handle.db, PROJECT_SETUPS, {
      email: `${prefix}-${Date.now()}@bench.local`,
      projectName: "bench",
    });
    const call = async (method: string, path: string, body?: unknown) => {
      const response = await api(
        new Request(`http://bench${path}`, {
          method,
          headers: { authorization: `ApiKey ${account.secret}`, "content-type": "application/json" },
          body: body === undefined ? undefined : JSON.stringify(body),
        }),
      );
      const json = await response.json();
      if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
      return json;
    };
    return { handle, app, account, databaseUrl: url.toString(), secretKey, call, close };
  } catch (error) {
    await close();
    throw error;
  }
}
