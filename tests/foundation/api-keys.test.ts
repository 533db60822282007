import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/test-app";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe("API keys", () => {
  it("creates a key whose secret is shown once and works at once", async () => {
    const { key } = await t.newProject();
    const created = await t.call("POST", "/api/keys", { key, body: { name: "ci" } });
    expect(created.status).toBe(201);
    expect(created.body.count).toBe(1);
    const apiKey = created.body.api_key;
    expect(apiKey).toMatchObject({ name: "ci" });
    expect(apiKey.key).toMatch(/^sk_/);
    expect(apiKey.key.startsWith(apiKey.prefix)).toBe(true);
    expect(apiKey.revoked_at).toBeUndefined();

    const listed = await t.call("GET", "/api/keys", { key: apiKey.key });
    expect(listed.status).toBe(200);
    expect(listed.body.count).toBe(2);
    const mine = listed.body.api_keys.find((k: { id: string }) => k.id === apiKey.id);
    expect(mine).toMatchObject({ name: "ci", prefix: apiKey.prefix });
    expect(mine.key).toBeUndefined();
    expect(JSON.stringify(listed.body)).not.toContain(apiKey.key);
  });

  it("records last_used_at when a key is used", async () => {
    const { key } = await t.newProject();
    const before = await t.call("POST", "/api/keys", { key, body: { name: "fresh" } });
    const fresh = before.body.api_key;
    const listedBefore = await t.call("GET", "/api/keys", { key });
    expect(listedBefore.body.api_keys.find((k: { id: string }) => k.id === fresh.id).last_used_at).toBeUndefined();
    await t.call("GET", "/api/keys", { key: fresh.key });
    const listedAfter = await t.call("GET", "/api/keys", { key });
    const usedAt = listedAfter.body.api_keys.find((k: { id: string }) => k.id === fresh.id).last_used_at;
    expect(Date.parse(usedAt)).toBeGreaterThan(Date.now() - 60_000);
  });

  it("revokes a key: it answers 401 afterwards and stays listed as revoked", async () => {
    const { key } = await t.newProject();
    const other = (await t.call("POST", "/api/keys", { key, body: {} })).body.api_key;
    // Used once first, so a cached resolution of the key exists when it is revoked.
    expect((await t.call("GET", "/api/keys", { key: other.key })).status).toBe(200);
    const revoked = await t.call("POST", `/api/keys/${other.id}/revoke`, { key });
    expect(revoked.status).toBe(200);
    expect(revoked.body.api_key.revoked_at).toMatch(/Z$/);

    const denied = await t.call("GET", "/api/keys", { key: other.key });
    expect(denied.status).toBe(401);
    expect(denied.body).toMatchObject({ code: "revoked_api_key" });
    expect(denied.body.detail).toContain("revoked");

    const again = await t.call("POST", `/api/keys/${other.id}/revoke`, { key });
    expect(again.body.api_key.revoked_at).toBe(revoked.body.api_key.revoked_at);
  });

  it("rejects a revoke of an unknown or malformed id", async () => {
    const { key } = await t.newProject();
    const unknown = await t.call("POST", "/api/keys/0190a3e4-0000-7000-8000-000000000000/revoke", { key });
    expect(unknown.status).toBe(404);
    const malformed = await t.call("POST", "/api/keys/not-a-uuid/revoke", { key });
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe("invalid_path_parameter");
    expect(malformed.body.detail).toContain("id");
  });

  it("never shows one project's keys to another", async () => {
    const a = await t.newProject("a");
    const b = await t.call("POST", "/api/keys", { key: (await t.newProject("b")).key, body: { name: "b-key" } });
    const listedByA = await t.call("GET", "/api/keys", { key: a.key });
    const ids = listedByA.body.api_keys.map((k: { id: string }) => k.id);
    expect(ids).not.toContain(b.body.api_key.id);
    expect(listedByA.body.count).toBe(1);

    const revokeOther = await t.call("POST", `/api/keys/${b.body.api_key.id}/revoke`, { key: a.key });
    expect(revokeOther.status).toBe(404);
    const stillWorks = await t.call("GET", "/api/keys", { key: b.body.api_key.key });
    expect(stillWorks.status).toBe(200);
  });
});

describe("401 paths", () => {
  const cases: [string, Record<string, string>, string][] = [
    ["missing header", {}, "missing_credentials"],
    ["wrong scheme", { authorization: "Bearer sk_abcdefghijklmnop" }, "malformed_credentials"],
    ["empty ApiKey", { authorization: "ApiKey " }, "malformed_credentials"],
    ["not a key", { authorization: "ApiKey hello" }, "malformed_credentials"],
    ["unknown key", { authorization: "ApiKey sk_thisKeyDoesNotExist000000000000000000000" }, "invalid_api_key"],
  ];
  for (const [name, headers, code] of cases) {
    it(`answers 401 for ${name} with a detail`, async () => {
      const res = await t.call("GET", "/api/keys", { headers });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe(code);
      expect(res.body.detail.length).toBeGreaterThan(10);
    });
  }
});
