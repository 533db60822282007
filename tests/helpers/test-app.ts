import { passDownHandlers, PROJECT_SETUPS } from "@/server/boot";
import { randomBytes } from "node:crypto";
import { createAccount } from "@/server/auth";
import { createApiDoors, type NodeRequestHandler, type WebDoor } from "@/server/boot";
import { loadConfig, type Config } from "@/server/core/config";
import type { DatabaseHandle } from "@/server/db";
import type { AppContext } from "@/server/core/app-context";
import { SecretBox, verifySecretKey } from "@/server/encryption";
import { assertResponseContract } from "./response-contract";
import { openTestDatabase } from "./test-database";

export const TEST_ADMIN_TOKEN = "test-admin-token-0123456789";

export interface CallOptions {
  key?: string | null;
  body?: unknown;
  /** Sent as is, for malformed-JSON tests. */
  rawBody?: string;
  headers?: Record<string, string>;
}

export interface TestResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface TestApp {
  context: AppContext;
  database: DatabaseHandle;
  /** The Next.js door (a web Request in, a Response out; `after` as Next.js's, to run what follows the answer). */
  handle: WebDoor;
  /** The production server's node:http door (server.ts), over the same route table. */
  serve: NodeRequestHandler;
  /** Calls the API through the same router Next.js uses, with a real Request. */
  call<T = any>(method: string, path: string, options?: CallOptions): Promise<TestResponse<T>>;
  /** Moves the app's clock (`context.now`) forward: "a day later" without waiting or editing rows. */
  advanceClock(ms: number): void;
  /** A fresh user, project and key, as an operator would create them. */
  newProject(label?: string): Promise<{ key: string; projectId: string; userId: string; role: "owner" }>;
  close(): Promise<void>;
}

let counter = 0;

export async function createTestApp(overrides: Partial<Config> = {}): Promise<TestApp> {
  const database = await openTestDatabase();
  const config = { ...loadConfig({}), adminToken: TEST_ADMIN_TOKEN, ...overrides };
  // A random key per test app, checked against its fresh database like at boot.
  const secrets = new SecretBox(config.secretKey ?? randomBytes(32));
  await verifySecretKey(database.db, secrets);
  let clockOffset = 0;
  const context: AppContext = {
    db: database.db,
    dbKind: database.kind,
    config,
    secrets,
    projectSetups: PROJECT_SETUPS,
    now: () => new Date(Date.now() + clockOffset),
  };
  passDownHandlers(context);
  const { web: handle, node: serve } = createApiDoors(context);

  async function call<T>(method: string, path: string, options: CallOptions = {}): Promise<TestResponse<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.key) headers.authorization = `ApiKey ${options.key}`;
    let body: string | undefined = options.rawBody;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers["content-type"] ??= "application/json";
    }
    const response = await handle(new Request(`http://localhost${path}`, { method, headers, body }));
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // Non-JSON bodies (streams) are returned as text.
    }
    assertResponseContract(method, path, response.status, response.headers, parsed);
    return { status: response.status, headers: response.headers, body: parsed as T };
  }

  return {
    context,
    database,
    handle,
    serve,
    call,
    advanceClock: (ms) => {
      clockOffset += ms;
    },
    async newProject(label = "p") {
      const n = ++counter;
      const account = await createAccount(database.db, PROJECT_SETUPS, {
        email: `${label}-${n}-${Date.now()}@test.local`,
        projectName: `${label} ${n}`,
      });
      return { key: account.secret, projectId: account.project.id, userId: account.user.id, role: "owner" as const };
    },
    close: () => database.close(),
  };
}
