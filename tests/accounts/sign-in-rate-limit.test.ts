import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { like } from "drizzle-orm";
import { createApiDoors } from "@/server/boot";
import { parseTrustedProxies } from "@/server/core/trusted-proxies";
import { rateLimits } from "@/server/db/schema";
import { anotherInstance, type AppInstance } from "../helpers/app-instance";
import { serveOverHttp, type RunningServer } from "../helpers/http-server";
import { createTestApp, type TestApp } from "../helpers/test-app";

// 3 sign-in attempts per 10 s per client address (better-auth's rule, in fixed windows:
// server/auth/sign-in-limit.ts). Each test uses addresses of its own on the loopback range
// (127.0.0.0/8), as different machines would.

let t: TestApp;
let second: AppInstance;
let first: RunningServer;
let other: RunningServer;
let clock = Date.now();
const OWNER = { name: "Ada Owner", email: "ada@example.com", password: "correct horse battery" };
const WRONG = { email: OWNER.email, password: "a wrong password" };

beforeAll(async () => {
  const proxies = parseTrustedProxies("127.0.0.10");
  if ("error" in proxies) throw new Error(proxies.error);
  t = await createTestApp({ authRateLimit: true, trustedProxies: proxies });
  first = await serveOverHttp(t);
  // A second app instance on the same database, with its own better-auth and its own socket.
  second = await anotherInstance(t);
  // One clock for both instances that moves only when a test moves it: a sign-in (a password
  // hash) can take seconds on a loaded machine, and the window counts from the first attempt.
  t.context.now = second.context.now = () => new Date(clock);
  const doors = createApiDoors(second.context);
  other = await serveOverHttp({ ...t, context: second.context, serve: doors.node, handle: doors.web });
  const owner = await send(first, "127.0.0.1", "/api/accounts/owner", OWNER);
  expect(owner.status).toBe(201);
});
afterAll(async () => {
  await other.close();
  await first.close();
  await second.close();
  await t.close();
});

/** A POST from a given local address, as a browser on that machine would send it. */
function send(
  server: RunningServer,
  from: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string; retryAfter?: string }> {
  const url = new URL(path, server.origin);
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: "POST",
        localAddress: from,
        agent: false,
        headers: { "content-type": "application/json", origin: server.origin, ...headers },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, body: text, retryAfter: res.headers["x-retry-after"] as string }),
        );
      },
    );
    req.on("error", reject);
    req.end(JSON.stringify(body));
  });
}

const signIn = (server: RunningServer, from: string, body: unknown, headers?: Record<string, string>) =>
  send(server, from, "/api/auth/sign-in/email", body, headers);

/** Wrong passwords from one address until the limiter refuses it. */
async function hammer(server: RunningServer, from: string, headers?: Record<string, string>) {
  const statuses: number[] = [];
  for (let i = 0; i < 5; i++) statuses.push((await signIn(server, from, WRONG, headers)).status);
  expect(statuses).toEqual([401, 401, 401, 429, 429]);
}

describe("the sign-in rate limit counts per client address", () => {
  it("one address hammering sign-in does not refuse another's", async () => {
    await hammer(first, "127.0.0.2");
    expect((await signIn(first, "127.0.0.2", OWNER)).status).toBe(429);
    expect((await signIn(first, "127.0.0.3", OWNER)).status).toBe(200);
  });

  it("believes X-Forwarded-For from a trusted proxy only, and only its own hop", async () => {
    // Behind the trusted proxy (127.0.0.10), each forwarded client has its own bucket, and the
    // address a client wrote itself (the left entry) does not pick someone else's bucket.
    await hammer(first, "127.0.0.10", { "x-forwarded-for": "198.51.100.7" });
    const forwarded = (client: string) => ({ "x-forwarded-for": client });
    expect((await signIn(first, "127.0.0.10", OWNER, forwarded("198.51.100.7"))).status).toBe(429);
    expect((await signIn(first, "127.0.0.10", OWNER, forwarded("198.51.100.7, 198.51.100.8"))).status).toBe(200);
    // A client that is not a trusted proxy cannot pose as someone else, nor as a fresh address.
    await hammer(first, "127.0.0.4", forwarded("198.51.100.20"));
    expect((await signIn(first, "127.0.0.4", OWNER, forwarded("198.51.100.21"))).status).toBe(429);
    expect((await signIn(first, "127.0.0.10", OWNER, forwarded("198.51.100.20"))).status).toBe(200);
    // A client cannot set the header the handler hands better-auth.
    expect((await signIn(first, "127.0.0.4", OWNER, { "x-svc-client-address": "198.51.100.99" })).status).toBe(429);
  });

  it("two app instances share the counter, which lives in the database", async () => {
    const statuses: number[] = [];
    for (const server of [first, other, first, other]) statuses.push((await signIn(server, "127.0.0.5", WRONG)).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
    expect((await signIn(other, "127.0.0.6", OWNER)).status).toBe(200);
    const rows = await t.database.db.select().from(rateLimits).where(like(rateLimits.key, "127.0.0.5|%"));
    // Three admitted and one refused (refused attempts are counted, one past the limit at most).
    expect(rows).toEqual([expect.objectContaining({ key: "127.0.0.5|/sign-in/email", count: 4 })]);
    // Forgetting the stored counter frees the address on every instance: no instance kept its own.
    await t.database.db.delete(rateLimits).where(like(rateLimits.key, "127.0.0.5|%"));
    expect((await signIn(other, "127.0.0.5", OWNER)).status).toBe(200);
    expect((await signIn(first, "127.0.0.5", WRONG)).status).toBe(401);
  });
});

describe("3 attempts per 10 s means 10 seconds from the first attempt", () => {
  it("attempts 9 seconds apart are never refused", async () => {
    // better-auth's own store moved the window to every admitted attempt: the fourth was refused.
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push((await signIn(first, "127.0.0.7", WRONG)).status);
      clock += 9_000;
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401]);
  });

  it("a refused address is admitted 10 seconds after its window's first attempt, not after its last", async () => {
    await hammer(first, "127.0.0.8");
    clock += 9_000;
    const late = await signIn(first, "127.0.0.8", OWNER);
    expect(late.status).toBe(429);
    expect(Number(late.retryAfter)).toBe(1);
    clock += 1_000;
    expect((await signIn(first, "127.0.0.8", OWNER)).status).toBe(200);
    // A new window: three more attempts, then refused again for the rest of it.
    clock += 10_000;
    await hammer(first, "127.0.0.8");
  });
});
