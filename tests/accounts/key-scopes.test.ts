import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/test-app";

let t: TestApp;
let full: string;

beforeAll(async () => {
  t = await createTestApp();
  full = (await t.newProject("scopes")).key;
});
afterAll(() => t.close());

async function keyWith(body: Record<string, unknown>) {
  const created = await t.call("POST", "/api/keys", { key: full, body });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.api_key as { id: string; key: string; scopes: string[]; expires_at?: string };
}

const spans = () => ({
  spans: [
    {
      trace_id: "a".repeat(31) + Math.floor(Math.random() * 10),
      span_id: "b".repeat(16),
      span_name: "s",
      start_time: new Date().toISOString(),
    },
  ],
});

describe("API key scopes", () => {
  it("a read-only key reads, and is refused changes with 403 naming the scope it lacks", async () => {
    const read = await keyWith({ name: "reader", scopes: ["read"] });
    expect(read.scopes).toEqual(["read"]);
    expect((await t.call("GET", "/api/keys", { key: read.key })).status).toBe(200);
    expect((await t.call("POST", "/api/traces/query", { key: read.key, body: {} })).status).toBe(200);
    const mint = await t.call("POST", "/api/keys", { key: read.key, body: { name: "escalate" } });
    expect(mint.status).toBe(403);
    expect(mint.body.code).toBe("missing_scope");
    expect(mint.body.detail).toBe("POST /api/keys needs an API key with the full scope; this key has: read-only");
    const invoke = await t.call("POST", "/services/agent/v0/invoke", { key: read.key, body: {} });
    expect(invoke.status).toBe(403);
    expect(invoke.body.detail).toContain("the run agents scope");
    const ingest = await t.call("POST", "/api/tracing/spans/ingest", { key: read.key, body: spans() });
    expect(ingest.status).toBe(403);
    expect(ingest.body.detail).toContain("the ingest traces scope");
  });

  it("an ingest-only key ingests and reads nothing", async () => {
    const ingest = await keyWith({ scopes: ["ingest"] });
    expect((await t.call("POST", "/api/tracing/spans/ingest", { key: ingest.key, body: spans() })).status).toBe(202);
    const list = await t.call("GET", "/api/keys", { key: ingest.key });
    expect(list.status).toBe(403);
    expect(list.body.detail).toBe(
      "GET /api/keys needs an API key with the read-only scope (or full); this key has: ingest traces",
    );
    expect((await t.call("POST", "/services/agent/v0/invoke", { key: ingest.key, body: {} })).status).toBe(403);
  });

  it("a run-only key reaches the agent doors (past the scope check) and nothing else", async () => {
    const run = await keyWith({ scopes: ["run"] });
    expect((await t.call("GET", "/v1/models", { key: run.key })).status).toBe(200);
    // Past authorization: the empty body is refused by validation, not by scope.
    const invoke = await t.call("POST", "/services/agent/v0/invoke", { key: run.key, body: {} });
    expect(invoke.status).toBe(400);
    expect(invoke.body.code).not.toBe("missing_scope");
    expect((await t.call("POST", "/api/tracing/spans/ingest", { key: run.key, body: spans() })).status).toBe(403);
    expect((await t.call("POST", "/api/traces/query", { key: run.key, body: {} })).status).toBe(403);
  });

  it("full is stored alone; no scope at all is refused", async () => {
    expect((await keyWith({ scopes: ["read", "full"] })).scopes).toEqual(["full"]);
    expect((await keyWith({})).scopes).toEqual(["full"]);
    expect((await t.call("POST", "/api/keys", { key: full, body: { scopes: [] } })).status).toBe(422);
    expect((await t.call("POST", "/api/keys", { key: full, body: { scopes: ["admin"] } })).status).toBe(422);
  });
});

describe("API key expiry", () => {
  it("refuses an expiry in the past", async () => {
    const r = await t.call("POST", "/api/keys", {
      key: full,
      body: { expires_at: new Date(t.context.now().getTime() - 1000).toISOString() },
    });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe("invalid_expiry");
  });

  it("works until it expires, then gets 401 saying so, cached or not", async () => {
    const expiresAt = new Date(t.context.now().getTime() + 60 * 60_000);
    const key = await keyWith({ name: "short", scopes: ["read"], expires_at: expiresAt.toISOString() });
    expect(key.expires_at).toBe(expiresAt.toISOString());
    // Twice: the second is answered from the principal cache.
    expect((await t.call("GET", "/api/keys", { key: key.key })).status).toBe(200);
    expect((await t.call("GET", "/api/keys", { key: key.key })).status).toBe(200);
    const listed = (await t.call("GET", "/api/keys", { key: full })).body.api_keys.find(
      (k: { id: string }) => k.id === key.id,
    );
    expect(listed).toMatchObject({ scopes: ["read"], expires_at: expiresAt.toISOString() });
    expect(listed.last_used_at).toBeDefined();
    t.advanceClock(60 * 60_000 + 1);
    const refused = await t.call("GET", "/api/keys", { key: key.key });
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe("expired_api_key");
    expect(refused.body.detail).toContain(`expired at ${expiresAt.toISOString()}`);
    expect((await t.call("GET", "/api/keys", { key: full })).status).toBe(200);
  });
});
