import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Principal } from "@/server/auth";
import type { Database } from "@/server/db";
import type { AppContext } from "@/server/core/app-context";
import { appRouter, createContextFrom } from "@/server/trpc";
import { createTestApp, type TestApp } from "../helpers/test-app";

let t: TestApp;
let principal: Principal;
beforeAll(async () => {
  t = await createTestApp();
  principal = await t.newProject();
});
afterAll(() => t.close());

/** The endpoint as app/api/trpc/[trpc]/route.ts wires it, over the test database. */
function handle(request: Request, app: AppContext = t.context): Promise<Response> {
  return fetchRequestHandler({
    endpoint: "/api/trpc",
    req: request,
    router: appRouter,
    createContext: () => createContextFrom(app, { principal, headers: request.headers }),
  });
}

function post(path: string, input: unknown): Request {
  return new Request(`http://localhost/api/trpc/${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ json: input }),
  });
}

// Non-batched responses are `{ result: { data: <superjson> } }` or `{ error: <superjson> }`.
async function errorOf(response: Response) {
  const body = await response.json();
  return body.error.json as { message: string; code: number; data: Record<string, unknown> };
}

describe("tRPC over HTTP", () => {
  it("serves queries with superjson", async () => {
    const response = await handle(new Request("http://localhost/api/trpc/apiKeys.list"));
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.result.data.json).toHaveLength(1);
  });

  it("gives an AppError its HTTP status, stable code and message, and no stack", async () => {
    const id = "0190a5a4-0000-7000-8000-000000000000";
    const response = await handle(post("apiKeys.revoke", { id }));
    expect(response.status).toBe(404);
    const error = await errorOf(response);
    expect(error.message).toBe(`API key ${id} not found in this project`);
    expect(error.data).toMatchObject({ code: "NOT_FOUND", httpStatus: 404, app: { code: "not_found" } });
    expect(error.data.stack).toBeUndefined();
  });

  it("reports schema violations as 422 with field errors", async () => {
    const response = await handle(post("apiKeys.create", { name: "" }));
    expect(response.status).toBe(422);
    const error = await errorOf(response);
    expect(error.data.app).toMatchObject({ code: "validation_error", errors: [{ path: "name" }] });
  });

  it("turns an unexpected failure into a 500 that leaks nothing", async () => {
    const secret = 'relation "api_keys" at /srv/app/server/auth/api-keys.ts:51';
    const broken = new Proxy(t.context.db, {
      get: () => () => {
        throw new Error(secret);
      },
    }) as Database;
    const response = await handle(new Request("http://localhost/api/trpc/apiKeys.list"), { ...t.context, db: broken });
    expect(response.status).toBe(500);
    const text = await response.clone().text();
    expect(text).not.toContain("api_keys");
    expect(text).not.toContain("/srv/app");
    const error = await errorOf(response);
    expect(error.message).toMatch(/^Internal server error/);
    expect(error.data).toMatchObject({
      code: "INTERNAL_SERVER_ERROR",
      httpStatus: 500,
      app: { code: "internal_error" },
    });
    expect(error.data.stack).toBeUndefined();
  });

  it("answers an unknown procedure with 404", async () => {
    const response = await handle(new Request("http://localhost/api/trpc/nope.nothing"));
    expect(response.status).toBe(404);
    expect((await errorOf(response)).data.app).toEqual({ code: "not_found" });
  });
});
