import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { OAuthClientInformationMixed, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/server/auth";
import { loadConfig } from "@/server/core/config";
import { rawQuery } from "@/server/db";
import { RETENTION_KINDS, retentionPass } from "@/server/retention";
import { HttpClient } from "../helpers/http-client";
import { serveOverHttp, type RunningServer } from "../helpers/http-server";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";
import { createTestApp, type TestApp } from "../helpers/test-app";

const OWNER = { name: "Ada Owner", email: "ada@example.com", password: "correct horse battery" };
const REDIRECT = "http://127.0.0.1:33418/callback";

let app: TestApp;
let live: RunningServer;
let model: ScriptedModelServer;
let projectId: string;
let browser: HttpClient;

/** The SDK's OAuth provider as a desktop client keeps it: in memory, the browser step left to the test. */
class MemoryProvider implements OAuthClientProvider {
  client?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = "";
  authorizationUrl?: URL;
  get redirectUrl() {
    return REDIRECT;
  }
  get clientMetadata() {
    return { client_name: "Test Desktop", redirect_uris: [REDIRECT], scope: "read run" };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

const endpoint = () => new URL(`${live.origin}/api/mcp/${projectId}`);

beforeAll(async () => {
  model = await startScriptedModelServer();
  app = await createTestApp({
    providerEnv: { openai: { key: "sk-oauth", baseUrl: model.baseUrl } },
    agentRuns: { ...loadConfig({}).agentRuns, maxRetries: 0 },
  });
  live = await serveOverHttp(app);
  browser = new HttpClient(live.origin);
  expect((await browser.send("POST", "/api/accounts/owner", { body: OWNER })).status).toBe(201);
  const me = await browser.query("account.me");
  projectId = me.data.current.projectId;
  const { secret: key } = await createApiKey(app.context.db, { projectId, userId: me.data.user.id });
  const created = await app.call("POST", "/api/workflows/", {
    key,
    body: {
      workflow: {
        slug: "greeter",
        name: "Greeter",
        data: { parameters: { agent: { llm: { model: "openai/gpt-5-mini" }, tools: [] } } },
      },
    },
  });
  expect(created.status).toBe(200);
  const deployed = await app.call("POST", "/api/workflows/revisions/deploy", {
    key,
    body: { workflow_ref: { slug: "greeter" }, environment_ref: { slug: "production" } },
  });
  expect(deployed.status).toBe(200);
  const exposed = await app.call("PUT", "/api/exposure", {
    key,
    body: { exposures: [{ kind: "agent", slug: "greeter", environment: "production" }] },
  });
  expect(exposed.status).toBe(200);
});

afterAll(async () => {
  await live.close();
  await app.close();
  await model.close();
});

/** The consent page's answer, as the signed-in user's browser posts it. */
async function consent(url: URL, decision: "allow" | "deny"): Promise<URL> {
  const request = Object.fromEntries(url.searchParams);
  const answer = await browser.send("POST", "/api/oauth/authorize", { body: { ...request, decision } });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return new URL(answer.body.redirect_to);
}

describe("the MCP authorization flow with the SDK client's OAuth provider", () => {
  it("discovers, registers, gets the user's consent, exchanges the code with PKCE, and calls tools", async () => {
    const provider = new MemoryProvider();
    const first = new Client({ name: "oauth-client", version: "1.0.0" });
    await expect(
      first.connect(new StreamableHTTPClientTransport(endpoint(), { authProvider: provider })),
    ).rejects.toThrow(UnauthorizedError);
    // Dynamic registration happened; the user is sent to the consent page of this service.
    expect(provider.client?.client_id).toMatch(/^[0-9a-f-]{36}$/);
    const url = provider.authorizationUrl!;
    expect(`${url.origin}${url.pathname}`).toBe(`${live.origin}/oauth/authorize`);
    expect(url.searchParams.get("resource")).toBe(endpoint().toString());
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");

    const callback = await consent(url, "allow");
    expect(`${callback.origin}${callback.pathname}`).toBe(REDIRECT);
    expect(callback.searchParams.get("state")).toBe(url.searchParams.get("state"));
    const code = callback.searchParams.get("code")!;

    const transport = new StreamableHTTPClientTransport(endpoint(), { authProvider: provider });
    await transport.finishAuth(code);
    expect(provider.saved).toMatchObject({ token_type: "Bearer", scope: "read run" });
    // The token is stored hashed: its text is in no row.
    const stored = await rawQuery(app.context.db, "select * from oauth_tokens");
    expect(JSON.stringify(stored)).not.toContain(provider.saved!.access_token);

    const client = new Client({ name: "oauth-client", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(endpoint(), { authProvider: provider }));
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["greeter@production"]);
    model.script({ kind: "reply", text: "Authorized hello." });
    const result = await client.callTool({ name: "greeter@production", arguments: { message: "hi" } });
    expect(result.content).toEqual([{ type: "text", text: "Authorized hello." }]);
    await client.close();

    // A code is used once.
    const again = await fetch(`${live.origin}/api/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code,
        code_verifier: provider.verifier,
        redirect_uri: REDIRECT,
        client_id: provider.client!.client_id,
      }),
    });
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ code: "invalid_grant" });
  });

  it("a read-only grant lists but cannot call; a denial goes back to the client as access_denied", async () => {
    const provider = new MemoryProvider();
    const first = new Client({ name: "reader", version: "1.0.0" });
    await expect(
      first.connect(new StreamableHTTPClientTransport(endpoint(), { authProvider: provider })),
    ).rejects.toThrow(UnauthorizedError);
    const denied = await consent(provider.authorizationUrl!, "deny");
    expect(denied.searchParams.get("error")).toBe("access_denied");
    expect(denied.searchParams.get("code")).toBeNull();

    // The SDK asks for every scope the resource metadata lists; this request asks for read only.
    const readOnly = new URL(provider.authorizationUrl!);
    readOnly.searchParams.set("scope", "read");
    const callback = await consent(readOnly, "allow");
    const transport = new StreamableHTTPClientTransport(endpoint(), { authProvider: provider });
    await transport.finishAuth(callback.searchParams.get("code")!);
    const client = new Client({ name: "reader", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(endpoint(), { authProvider: provider }));
    expect((await client.listTools()).tools).toHaveLength(1);
    await expect(client.callTool({ name: "greeter@production", arguments: { message: "x" } })).rejects.toThrow(
      /run agents scope/,
    );
    await client.close();
  });

  it("the consent is the signed-in user's, same-origin only; an unregistered redirect_uri is refused", async () => {
    const anonymous = new HttpClient(live.origin);
    const body = {
      response_type: "code",
      client_id: "0190aaaa-0000-7000-8000-000000000000",
      redirect_uri: REDIRECT,
      code_challenge: "a".repeat(43),
      code_challenge_method: "S256",
      decision: "allow",
    };
    expect((await anonymous.send("POST", "/api/oauth/authorize", { body })).status).toBe(401);
    expect((await browser.send("POST", "/api/oauth/authorize", { body, origin: "https://evil.example" })).status).toBe(
      403,
    );
    const registered = await fetch(`${live.origin}/api/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ redirect_uris: [REDIRECT] }),
    });
    const { client_id } = await registered.json();
    const wrong = await browser.send("POST", "/api/oauth/authorize", {
      body: { ...body, client_id, redirect_uri: "https://attacker.example/cb" },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe("invalid_oauth_request");
    const javascript = await fetch(`${live.origin}/api/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ redirect_uris: ["javascript:alert(1)"] }),
    });
    expect(javascript.status).toBe(422);
  });

  it("revokes a grant by either token (RFC 7009): the MCP endpoint and the refresh grant refuse it", async () => {
    const provider = new MemoryProvider();
    await expect(
      new Client({ name: "revoker", version: "1.0.0" }).connect(
        new StreamableHTTPClientTransport(endpoint(), { authProvider: provider }),
      ),
    ).rejects.toThrow(UnauthorizedError);
    const callback = await consent(provider.authorizationUrl!, "allow");
    await new StreamableHTTPClientTransport(endpoint(), { authProvider: provider }).finishAuth(
      callback.searchParams.get("code")!,
    );
    const { access_token, refresh_token } = provider.saved!;
    const clientId = provider.client!.client_id;
    const metadata = await (await fetch(`${live.origin}/.well-known/oauth-authorization-server`)).json();
    expect(metadata.revocation_endpoint).toBe(`${live.origin}/api/oauth/revoke`);
    const revoke = (fields: Record<string, string>) =>
      fetch(metadata.revocation_endpoint, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(fields),
      });
    const listTools = () =>
      fetch(endpoint(), {
        method: "POST",
        headers: {
          authorization: `Bearer ${access_token}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
      });
    expect((await listTools()).status).toBe(200);

    // Another client cannot revoke it; an unknown token is answered 200 (RFC 7009 2.2).
    const other = await revoke({ token: refresh_token!, client_id: "0190aaaa-0000-7000-8000-000000000000" });
    expect(other.status).toBe(400);
    expect((await listTools()).status).toBe(200);
    const unknown = await revoke({ token: "mcprt_nothing", client_id: clientId });
    expect(unknown.status).toBe(200);

    const revoked = await revoke({ token: refresh_token!, token_type_hint: "refresh_token", client_id: clientId });
    expect(revoked.status).toBe(200);
    expect(await revoked.json()).toEqual({});
    const refused = await listTools();
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toContain("resource_metadata=");
    const refresh = await fetch(`${live.origin}/api/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: refresh_token!, client_id: clientId }),
    });
    expect(refresh.status).toBe(400);
    expect(await refresh.json()).toMatchObject({ code: "invalid_grant" });
    // Revoking again changes nothing and is still 200.
    expect((await revoke({ token: access_token, client_id: clientId })).status).toBe(200);
  });

  it("the retention pass deletes codes and grants that can no longer be used, whatever the settings", async () => {
    const kind = RETENTION_KINDS.find((candidate) => candidate.name === "oauth-grants")!;
    const count = async (table: string, where = "true") =>
      (await rawQuery<{ n: number }>(app.context.db, `select count(*)::int as n from ${table} where ${where}`))[0].n;
    // The revoked grant (and the rows refresh rotation revoked) go at once; live grants and fresh codes stay.
    const live = await count("oauth_tokens", "revoked_at is null");
    expect(await count("oauth_tokens", "revoked_at is not null")).toBeGreaterThan(0);
    await retentionPass(app.context, kind);
    expect(await count("oauth_tokens")).toBe(live);
    expect(await count("oauth_codes")).toBeGreaterThan(0);
    // Past the refresh tokens' 30 days, nothing is left to use and nothing is kept.
    app.advanceClock(31 * 24 * 3600_000);
    expect(await retentionPass(app.context, kind, { batch: 1 })).toBe(2);
    while ((await retentionPass(app.context, kind)) > 0);
    expect(await count("oauth_tokens")).toBe(0);
    expect(await count("oauth_codes")).toBe(0);
    // Registered clients stay: a client keeps its id.
    expect(await count("oauth_clients")).toBeGreaterThan(0);
  });

  // Last: it uses up this address's registrations for the hour.
  it("limits dynamic registration per client address: 429 rate_limited with Retry-After", async () => {
    const register = () =>
      fetch(`${live.origin}/api/oauth/register`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ redirect_uris: [REDIRECT] }),
      });
    const statuses: number[] = [];
    let refusal: Response | undefined;
    for (let i = 0; i < 25 && !refusal; i++) {
      const answer = await register();
      statuses.push(answer.status);
      if (answer.status === 429) refusal = answer;
    }
    // The earlier tests registered a few clients from this address; the rest of the 20 are admitted.
    expect(refusal, statuses.join(",")).toBeDefined();
    expect(statuses.filter((status) => status === 201).length).toBeGreaterThan(10);
    expect(statuses.slice(0, -1).every((status) => status === 201)).toBe(true);
    expect(Number(refusal!.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(refusal!.headers.get("ratelimit-policy")).toBe('"oauth_registrations";q=20;w=3600');
    expect(await refusal!.json()).toMatchObject({
      code: "rate_limited",
      limit: { policy: "oauth_registrations", quota: 20, window_seconds: 3600 },
    });
    const stored = await rawQuery<{ n: number }>(app.context.db, "select count(*)::int as n from oauth_clients");
    expect(stored[0].n).toBeLessThanOrEqual(20);
    expect((await register()).status).toBe(429);
  });
});
