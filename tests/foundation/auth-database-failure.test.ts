import { afterEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/test-app";

/**
 * A credential check the database cannot make is a 503 that says so and why, never a 401: a
 * client told "unknown key" may discard a good key, and an operator looks in the wrong place.
 * The database fails for real: its pool (PostgreSQL) or instance (PGlite) is closed under the app.
 */
describe("authentication when the database fails", () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close().catch(() => {});
    t = undefined;
  });

  const expectDatabaseUnavailable = (res: { status: number; body: any }, what: string) => {
    expect(res.status, JSON.stringify(res.body)).toBe(503);
    expect(res.body.code).toBe("database_unavailable");
    expect(res.body.detail).toMatch(new RegExp(`^${what} could not be checked: the database could not be reached`));
  };

  it("answers an API key lookup the database fails with 503 database_unavailable, on both doors", async () => {
    t = await createTestApp();
    const { key } = await t.newProject();
    const known = await t.call("GET", "/api/keys", { key });
    expect(known.status).toBe(200);
    const { key: fresh } = await t.newProject();

    await t.database.close();

    const res = await t.call("GET", "/api/keys", { key: fresh });
    expectDatabaseUnavailable(res, "The API key");
    // The driver's reason is named; the statement's parameters (the key's hash) are not.
    expect(res.body.detail).toMatch(/\((CONNECTION_ENDED|CONNECTION_DESTROYED|PGlite is closed)/);
    expect(res.body.detail).not.toMatch(/params|select/i);
    expect(res.headers.get("x-request-id")).toBeTruthy();

    // A key that was never valid is not told apart either: the database cannot say.
    expectDatabaseUnavailable(await t.call("GET", "/api/keys", { key: "sk_never_issued_0123456789" }), "The API key");

    const openAi = await t.call("GET", "/v1/models", { headers: { authorization: `Bearer ${fresh}` } });
    expect(openAi.status).toBe(503);
    expect(openAi.body.error).toMatchObject({ type: "server_error", code: "database_unavailable" });
  });

  it("answers a session lookup the database fails with 503 database_unavailable, not not_signed_in", async () => {
    t = await createTestApp();
    const owner = await t.call("POST", "/api/accounts/owner", {
      body: { name: "Ada", email: "ada@example.com", password: "correct horse battery" },
      headers: { origin: "http://localhost", host: "localhost" },
    });
    expect(owner.status, JSON.stringify(owner.body)).toBe(201);
    const cookie = owner.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const session = { cookie, origin: "http://localhost", host: "localhost" };
    const before = await t.call("POST", "/api/playground/invoke", { headers: session, body: {} });
    expect(before.status).not.toBe(401);
    expect((await t.call("GET", "/api/auth/list-sessions", { headers: session })).status).toBe(200);

    await t.database.close();

    expectDatabaseUnavailable(
      await t.call("POST", "/api/playground/invoke", { headers: session, body: {} }),
      "The session",
    );
    // better-auth's own endpoints behind its session middleware, which would answer its 401.
    expectDatabaseUnavailable(
      await t.call("GET", "/api/auth/list-sessions", { headers: session }),
      "The sign-in or session",
    );
  });
});
