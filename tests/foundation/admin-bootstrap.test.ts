import { PROJECT_SETUPS } from "@/server/boot";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureDefaultAccount, findDefaultPrincipal } from "@/server/auth";
import { createTestApp, TEST_ADMIN_TOKEN, type TestApp } from "../helpers/test-app";

describe("admin bootstrap (enabled)", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it("creates a user, a project and a working key", async () => {
    const res = await t.call("POST", "/api/admin/accounts", {
      headers: { authorization: `Access ${TEST_ADMIN_TOKEN}` },
      body: { email: "ops@example.com", project_name: "Ops" },
    });
    expect(res.status).toBe(201);
    const { user, project, api_key } = res.body.account;
    expect(user.email).toBe("ops@example.com");
    expect(project.name).toBe("Ops");
    const keys = await t.call("GET", "/api/keys", { key: api_key.key });
    expect(keys.status).toBe(200);
    expect(keys.body.api_keys.map((k: { id: string }) => k.id)).toEqual([api_key.id]);
  });

  it("refuses a duplicate email with 409 and stores nothing new", async () => {
    const body = { email: "dup@example.com" };
    const headers = { authorization: `Access ${TEST_ADMIN_TOKEN}` };
    expect((await t.call("POST", "/api/admin/accounts", { headers, body })).status).toBe(201);
    const second = await t.call("POST", "/api/admin/accounts", { headers, body });
    expect(second.status).toBe(409);
    expect(second.body.detail).toContain("dup@example.com");
  });

  it("answers 401 for a wrong or missing admin token", async () => {
    const wrong = await t.call("POST", "/api/admin/accounts", {
      headers: { authorization: "Access not-the-token-at-all" },
      body: { email: "x@example.com" },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe("invalid_admin_token");
    const missing = await t.call("POST", "/api/admin/accounts", { body: { email: "x@example.com" } });
    expect(missing.status).toBe(401);
  });

  it("validates the body with paths", async () => {
    const res = await t.call("POST", "/api/admin/accounts", {
      headers: { authorization: `Access ${TEST_ADMIN_TOKEN}` },
      body: { email: "not-an-email" },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([expect.objectContaining({ path: "email" })]);
  });

  it("creates the default account once on an empty database", async () => {
    const first = await ensureDefaultAccount(t.context.db, PROJECT_SETUPS);
    expect(first?.secret).toMatch(/^sk_/);
    expect(await ensureDefaultAccount(t.context.db, PROJECT_SETUPS)).toBeNull();
    const principal = await findDefaultPrincipal(t.context.db);
    expect(principal).toEqual({ projectId: first!.project.id, userId: first!.user.id, role: "owner" });
    const keys = await t.call("GET", "/api/keys", { key: first!.secret });
    expect(keys.status).toBe(200);
  });
});

describe("admin bootstrap (disabled)", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ adminToken: undefined });
  });
  afterAll(() => t.close());

  it("answers 403 saying how to enable it", async () => {
    const res = await t.call("POST", "/api/admin/accounts", {
      headers: { authorization: `Access ${TEST_ADMIN_TOKEN}` },
      body: { email: "ops@example.com" },
    });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: "admin_disabled" });
    expect(res.body.detail).toContain("ADMIN_TOKEN");
  });
});
