import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/test-app";

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await createTestApp({ maxBodyBytes: 2048 });
  key = (await t.newProject()).key;
});
afterAll(() => t.close());

describe("HTTP conventions", () => {
  it("answers invalid JSON with 400", async () => {
    const res = await t.call("POST", "/api/keys", {
      key,
      rawBody: '{"name": ',
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("invalid_json");
    expect(res.body.detail).toMatch(/not valid JSON/);
  });

  it("answers a schema violation with 422 naming each path", async () => {
    const res = await t.call("POST", "/api/keys", { key, body: { name: 42, extra: true } });
    expect(res.status).toBe(422);
    const paths = res.body.errors.map((e: { path: string }) => e.path).sort();
    expect(paths).toEqual(["", "name"]);
    expect(res.body.errors.find((e: { path: string }) => e.path === "").message).toContain("extra");
  });

  it("answers an oversized body with 413 and stores nothing", async () => {
    const res = await t.call("POST", "/api/keys", { key, body: { name: "x".repeat(5000) } });
    expect(res.status).toBe(413);
    expect(res.body.code).toBe("payload_too_large");
    const listed = await t.call("GET", "/api/keys", { key });
    expect(listed.body.count).toBe(1);
  });

  it("answers 413 for a streamed body without Content-Length", async () => {
    const chunk = new TextEncoder().encode("x".repeat(1024));
    const stream = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 4; i++) controller.enqueue(chunk);
        controller.close();
      },
    });
    const res = await t.handle(
      new Request("http://localhost/api/keys", {
        method: "POST",
        headers: { authorization: `ApiKey ${key}` },
        body: stream,
        duplex: "half",
      } as RequestInit),
    );
    expect(res.status).toBe(413);
  });

  it("answers unknown /api paths with a JSON 404", async () => {
    const res = await t.call("GET", "/api/does-not-exist", { key });
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(res.body).toMatchObject({ code: "route_not_found" });
  });

  it("answers a wrong method with 405 and Allow", async () => {
    const res = await t.call("DELETE", "/api/keys", { key });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST, GET");
    expect(res.body.detail).toContain("DELETE");
  });

  it("puts an x-request-id on every response, echoing a sane incoming one", async () => {
    const ok = await t.call("GET", "/api/health");
    expect(ok.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const echoed = await t.call("GET", "/api/nope", { headers: { "x-request-id": "trace-abc.1" } });
    expect(echoed.headers.get("x-request-id")).toBe("trace-abc.1");
    const replaced = await t.call("GET", "/api/health", { headers: { "x-request-id": "bad id\n" } });
    // A fresh id in place of the unsafe one ("bad" alone can occur in a hex id).
    expect(replaced.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("reports health with the database kind and version", async () => {
    const res = await t.call("GET", "/api/health");
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("ok");
    expect(res.body.database.kind).toBe(process.env.DATABASE_URL ? "postgres" : "pglite");
    expect(res.body.database.version).toMatch(/PostgreSQL \d+/);
  });
});

describe("text the database cannot store", () => {
  it("answers a NUL character in a string with 400, not 500", async () => {
    const res = await t.call("POST", "/api/applications/", {
      key,
      rawBody: '{"application": {"slug": "nul", "data": {"parameters": {"x": "a\\u0000b"}}}}',
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("invalid_character");
    const after = await t.call("POST", "/api/applications/query", { key, body: { application: { slug: "nul" } } });
    expect(after.body.count).toBe(0);
  });
});
