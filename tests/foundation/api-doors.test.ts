import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveOverHttp, type Door, type RunningServer } from "../helpers/http-server";
import { createTestApp, type TestApp } from "../helpers/test-app";

// The HTTP conventions over a real socket, through each door into the one route table: the
// production node:http front (server.ts) and the web Request/Response route Next.js serves.
describe.each<Door>(["node", "next"])("through the %s door", (door) => {
  let t: TestApp;
  let server: RunningServer;
  let key: string;
  beforeAll(async () => {
    t = await createTestApp({ maxBodyBytes: 2048 });
    key = (await t.newProject()).key;
    server = await serveOverHttp(t, door);
  });
  afterAll(async () => {
    await server.close();
    await t.close();
  });

  const send = (method: string, path: string, init: { body?: string; headers?: Record<string, string> } = {}) =>
    fetch(`${server.origin}${path}`, {
      method,
      body: init.body,
      headers: { authorization: `ApiKey ${key}`, ...init.headers },
    });

  it("creates and lists with a JSON body, its Content-Length exact", async () => {
    const created = await send("POST", "/api/keys", {
      body: JSON.stringify({ name: `door ${door}` }),
      headers: { "content-type": "application/json" },
    });
    expect(created.status).toBe(201);
    const text = await created.text();
    expect(JSON.parse(text).api_key.name).toBe(`door ${door}`);
    const listed = await send("GET", "/api/keys");
    const body = await listed.text();
    expect(listed.headers.get("content-type")).toBe("application/json; charset=utf-8");
    if (door === "node") expect(Number(listed.headers.get("content-length"))).toBe(Buffer.byteLength(body));
    expect(JSON.parse(body).api_keys.map((k: { name: string }) => k.name)).toContain(`door ${door}`);
  });

  it("answers bad JSON 400, a schema violation 422, no credentials 401", async () => {
    const bad = await send("POST", "/api/keys", { body: '{"name": ', headers: { "content-type": "application/json" } });
    expect(bad.status).toBe(400);
    expect((await bad.json()).code).toBe("invalid_json");
    const invalid = await send("POST", "/api/keys", { body: JSON.stringify({ name: 42 }) });
    expect(invalid.status).toBe(422);
    expect((await invalid.json()).errors[0].path).toBe("name");
    const anonymous = await fetch(`${server.origin}/api/keys`);
    expect(anonymous.status).toBe(401);
    expect((await anonymous.json()).code).toBe("missing_credentials");
  });

  it("answers 413 for a declared and for a chunked oversized body, and stores nothing", async () => {
    const declared = await send("POST", "/api/keys", { body: JSON.stringify({ name: "x".repeat(5000) }) });
    expect(declared.status).toBe(413);
    expect((await declared.json()).code).toBe("payload_too_large");
    const chunked = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(
        `${server.origin}/api/keys`,
        { method: "POST", headers: { authorization: `ApiKey ${key}` } },
        (res) => {
          let body = "";
          res.on("data", (chunk) => (body += chunk));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on("error", reject);
      // No Content-Length: the size is only known by counting what arrives.
      for (let i = 0; i < 4; i++) req.write('{"name":"' + "y".repeat(1024));
      req.end('"}');
    });
    expect(chunked.status).toBe(413);
    expect(JSON.parse(chunked.body).code).toBe("payload_too_large");
    const listed = await (await send("GET", "/api/keys")).json();
    expect(listed.api_keys.some((k: { name: string }) => k.name.startsWith("x") || k.name.startsWith("y"))).toBe(false);
  });

  it("answers unknown paths 404 and wrong methods 405 with Allow, in JSON", async () => {
    const missing = await send("GET", "/api/does-not-exist");
    expect(missing.status).toBe(404);
    expect((await missing.json()).code).toBe("route_not_found");
    const wrong = await send("DELETE", "/api/keys");
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toBe("POST, GET");
    const service = await send("GET", "/services/agent/v0/invoke");
    expect(service.status).toBe(405);
  });

  it("echoes a sane request id and replaces a bad one; HEAD answers without a body", async () => {
    const echoed = await send("GET", "/api/health", { headers: { "x-request-id": "door-trace.1" } });
    expect(echoed.headers.get("x-request-id")).toBe("door-trace.1");
    const replaced = await send("GET", "/api/health", { headers: { "x-request-id": "bad id" } });
    expect(replaced.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const head = await send("HEAD", "/api/health");
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
  });

  it("reads the query string and normalises dot segments as the URL parser does", async () => {
    const unknown = await send("GET", "/api/evaluators/catalog/presets?nope=1");
    expect(unknown.status).toBe(422);
    expect((await unknown.json()).errors[0].message).toContain("nope");
    const dotted = await send("GET", "/api/nothing/../keys");
    expect(dotted.status).toBe(200);
  });

  it("refuses a cross-site change to a session, better-auth's endpoints included", async () => {
    const ours = await fetch(`${server.origin}/api/accounts/sign-up`, {
      method: "POST",
      headers: { origin: "http://elsewhere.example", "content-type": "application/json" },
      body: JSON.stringify({ email: "a@b.c", password: "whatever-long-enough" }),
    });
    expect(ours.status).toBe(403);
    expect((await ours.json()).code).toBe("cross_site_request");
    const auth = await fetch(`${server.origin}/api/auth/sign-out`, {
      method: "POST",
      headers: { origin: "http://elsewhere.example" },
    });
    expect(auth.status).toBe(403);
  });
});
