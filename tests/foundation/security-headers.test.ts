import http, { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NextRequest } from "next/server";
import { proxy } from "@/proxy";
import { createFront } from "@/server/boot";
import { loadConfig } from "@/server/core/config";
import {
  apiSecurityHeaders,
  pageSecurityHeaders,
  parseCspAdditions,
  securityHeaderSettings,
} from "@/server/core/security-headers";
import { parseTrustedProxies } from "@/server/core/trusted-proxies";
import { createTestApp, type TestApp } from "../helpers/test-app";

let t: TestApp;
const servers: Server[] = [];

/** The production front (server.ts's wiring) on a real socket, pages answered by a stand-in. */
async function front(publicUrl?: string): Promise<string> {
  const headers = apiSecurityHeaders(securityHeaderSettings({ publicUrl, cspAdditions: {} }));
  const server = createServer(
    createFront(
      t.serve,
      async (_req, res) => void res.writeHead(200, { "content-type": "text/html" }).end("<p>page"),
      headers,
    ),
  );
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  const proxies = parseTrustedProxies("127.0.0.10");
  if ("error" in proxies) throw new Error(proxies.error);
  t = await createTestApp({ trustedProxies: proxies });
});
afterAll(async () => {
  for (const server of servers) await new Promise((resolve) => server.close(resolve));
  await t.close();
});

const API_ANSWERS: [string, RequestInit?][] = [
  ["/api/health"],
  ["/api/no-such-route"],
  ["/api/applications/query", { method: "POST", body: "{}" }],
  ["/api/auth/get-session"],
  ["/v1/models"],
  ["/services/agent/v0/inspect", { method: "POST", body: "{}" }],
];

describe("API answers of the production server", () => {
  it("every answer, success or refusal, may not be framed, sniffed or load anything", async () => {
    const origin = await front();
    for (const [path, init] of API_ANSWERS) {
      const res = await fetch(origin + path, init);
      await res.arrayBuffer();
      expect.soft(res.headers.get("content-security-policy"), path).toBe("default-src 'none'; frame-ancestors 'none'");
      expect.soft(res.headers.get("x-frame-options"), path).toBe("DENY");
      expect.soft(res.headers.get("x-content-type-options"), path).toBe("nosniff");
      expect.soft(res.headers.get("referrer-policy"), path).toBe("same-origin");
      expect.soft(res.headers.get("permissions-policy"), path).toContain("camera=()");
      expect.soft(res.headers.get("strict-transport-security"), path).toBeNull();
    }
    // The route's own headers are kept beside them.
    expect((await fetch(`${origin}/api/health`)).headers.get("content-type")).toContain("application/json");
  });

  it("HSTS only when the operator says the app is served over HTTPS", async () => {
    const origin = await front("https://agents.example.com");
    const res = await fetch(`${origin}/api/health`);
    expect(res.headers.get("strict-transport-security")).toBe("max-age=31536000");
  });

  it("leaves what Next.js serves to proxy.ts", async () => {
    const res = await fetch(`${await front()}/agents`);
    expect(res.headers.get("content-security-policy")).toBeNull();
  });
});

describe("pages (proxy.ts)", () => {
  const visit = (path: string) => proxy(new NextRequest(`http://127.0.0.1:3000${path}`));

  it("a strict policy with a fresh nonce per page, handed to Next.js's renderer", () => {
    const first = visit("/agents");
    const csp = first.headers.get("content-security-policy") ?? "";
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(csp).toContain(`script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`);
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    for (const directive of ["object-src 'none'", "base-uri 'self'", "frame-ancestors 'self'", "form-action 'self'"])
      expect(csp).toContain(directive);
    expect(first.headers.get("x-frame-options")).toBe("SAMEORIGIN");
    expect(first.headers.get("x-content-type-options")).toBe("nosniff");
    // Next.js reads the nonce from the request's CSP header; the layout's theme script from x-nonce.
    expect(first.headers.get("x-middleware-request-content-security-policy")).toBe(csp);
    expect(first.headers.get("x-middleware-request-x-nonce")).toBe(nonce);
    expect(visit("/agents").headers.get("x-middleware-request-x-nonce")).not.toBe(nonce);
  });

  it("the tRPC endpoint gets the API's headers", () => {
    const res = visit("/api/trpc/projects.list");
    expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
  });

  it("matches pages and tRPC, not the router's paths or static chunks", async () => {
    const { config } = await import("@/proxy");
    const matcher = new RegExp(`^${config.matcher[0]}$`);
    for (const path of ["/", "/agents", "/login", "/api/trpc/projects.list"])
      expect(matcher.test(path), path).toBe(true);
    for (const path of [
      "/api/health",
      "/api",
      "/v1/chat/completions",
      "/services/agent/v0/invoke",
      "/_next/static/x.js",
    ])
      expect(matcher.test(path), path).toBe(false);
  });
});

describe("an operator extends the pages' policy (CSP_EXTRA)", () => {
  it("adds sources to a directive, or to one the policy leaves to default-src", () => {
    const additions = parseCspAdditions("img-src https://cdn.example.com; frame-src https://grafana.example.com");
    if ("error" in additions) throw new Error(String(additions.error));
    const csp = pageSecurityHeaders("n", { https: false, cspAdditions: additions })["content-security-policy"];
    expect(csp).toContain("img-src 'self' data: blob: https://cdn.example.com");
    expect(csp).toContain("frame-src 'self' https://grafana.example.com");
    expect(csp).toContain("object-src 'none'");
  });

  it("is refused at start when it names a directive it may not loosen or a source that is not one", () => {
    expect(() => loadConfig({ CSP_EXTRA: "object-src https://x.example" })).toThrow(/CSP_EXTRA: "object-src"/);
    expect(() => loadConfig({ CSP_EXTRA: "script-src 'nonce-abc'" })).toThrow(/'nonce-abc'/);
    expect(() => loadConfig({ CSP_EXTRA: "img-src" })).toThrow(/names no source/);
    expect(loadConfig({ CSP_EXTRA: "connect-src https://api.example.com" }).cspAdditions).toEqual({
      "connect-src": ["https://api.example.com"],
    });
  });
});

/** A sign-in from a given local address, as a browser (or a proxy) on that machine sends it. */
function signIn(origin: string, from: string, headers: Record<string, string>): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${origin}/api/auth/sign-in/email`,
      {
        method: "POST",
        localAddress: from,
        agent: false,
        headers: { "content-type": "application/json", origin, ...headers },
      },
      (res) => {
        res.resume();
        res.on("end", () =>
          res.statusCode === 200 ? resolve(res.headers["set-cookie"] ?? []) : reject(new Error(`${res.statusCode}`)),
        );
      },
    );
    req.on("error", reject);
    req.end(JSON.stringify(OWNER));
  });
}

const OWNER = { name: "Ada Owner", email: "ada@example.com", password: "correct horse battery" };

describe("cookies behind TLS", () => {
  it("are Secure when a trusted proxy says the client came over https, and only then", async () => {
    const origin = await front();
    const owner = await fetch(`${origin}/api/accounts/owner`, {
      method: "POST",
      headers: { "content-type": "application/json", origin },
      body: JSON.stringify(OWNER),
    });
    expect(owner.status).toBe(201);
    const secure = (cookies: string[]) => cookies.length > 0 && cookies.every((c) => /;\s*secure(;|$)/i.test(c));
    expect(secure(await signIn(origin, "127.0.0.10", { "x-forwarded-proto": "https" }))).toBe(true);
    expect(secure(await signIn(origin, "127.0.0.10", { "x-forwarded-proto": "http" }))).toBe(false);
    // A client that is no trusted proxy cannot ask for it (nor would it matter if it could).
    expect(secure(await signIn(origin, "127.0.0.11", { "x-forwarded-proto": "https" }))).toBe(false);
    expect(secure(await signIn(origin, "127.0.0.11", {}))).toBe(false);
  });
});
