import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { assertResponseContract, ContractViolations } from "../helpers/response-contract";

/** A socket whose handler answers GET /api/health with the given reply, written the way writeReply writes. */
async function answer(write: (res: ServerResponse) => void): Promise<ContractViolations> {
  const contract = new ContractViolations();
  const server = createServer(contract.node(async (_req: IncomingMessage, res: ServerResponse) => write(res)));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/health`);
  await response.text();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return contract;
}

const healthy = JSON.stringify({
  status: "ok",
  database: { kind: "pglite", version: "17", pooler: "none", prepared_statements: false, notifications: "in-process" },
  workers: "in-process",
  revision_cache: {
    coherence: "listen",
    listening: true,
    entries: 0,
    bytes: 0,
    max_entries: 10,
    max_bytes: 100,
    hits: 0,
    misses: 0,
    invalidations: 0,
    evictions: 0,
    held: 0,
  },
});

describe("the response contract on the node:http door", () => {
  it("passes an answer that matches the route's declared schema", async () => {
    const contract = await answer((res) =>
      res.writeHead(200, { "content-type": "application/json; charset=utf-8", "x-request-id": "r1" }).end(healthy),
    );
    expect(() => contract.assertNone()).not.toThrow();
  });

  it("fails on a JSON success body the schema does not allow, written at once or streamed in chunks", async () => {
    const atOnce = await answer((res) =>
      res.writeHead(200, { "content-type": "application/json", "x-request-id": "r1" }).end('{"status":"down"}'),
    );
    expect(() => atOnce.assertNone()).toThrow(/GET \/api\/health answered 200 .*status/);
    const streamed = await answer((res) => {
      res.setHeader("content-type", "application/json");
      res.setHeader("X-Request-Id", "r1");
      res.write('{"status":');
      res.end('"ok"}');
    });
    expect(() => streamed.assertNone()).toThrow(/database/);
  });

  it("passes an error whose code the framework answers on that route, and non-JSON bodies", async () => {
    const error = await answer((res) =>
      res
        .writeHead(500, { "content-type": "application/json", "x-request-id": "r1" })
        .end('{"detail":"x","code":"internal_error"}'),
    );
    const text = await answer((res) =>
      res.writeHead(200, ["Content-Type", "text/plain", "X-Request-Id", "r1"]).end("ok"),
    );
    expect(() => error.assertNone()).not.toThrow();
    expect(() => text.assertNone()).not.toThrow();
  });

  it("fails on an error code neither the framework nor the route's `errors` lists, naming both", async () => {
    const undeclared = await answer((res) =>
      res
        .writeHead(404, { "content-type": "application/json", "x-request-id": "r1" })
        .end('{"detail":"x","code":"budget_not_found"}'),
    );
    expect(() => undeclared.assertNone()).toThrow(
      /GET \/api\/health answered 404 with code "budget_not_found".*add "budget_not_found" to the route's `errors`/,
    );
  });
});

/** The headers every JSON answer carries. */
const json = { "content-type": "application/json; charset=utf-8", "x-request-id": "r1" };

describe("the error codes a route declares", () => {
  it("admits a declared code, in the project's shape or OpenAI's, and refuses one the route does not list", () => {
    const openAi = (code: string) => ({ error: { message: "x", type: "invalid_request_error", param: null, code } });
    expect(() => assertResponseContract("GET", "/v1/models/nope", 404, json, openAi("model_not_found"))).not.toThrow();
    expect(() => assertResponseContract("GET", "/v1/models/nope", 404, json, openAi("budget_not_found"))).toThrow(
      /GET \/v1\/models\/\{model\} answered 404 with code "budget_not_found"/,
    );
    // A reference-compat answer (`detail` as an object) is read by its top-level code alike.
    const structured = { detail: { message: "x", code: "budget_not_found" }, code: "budget_not_found" };
    expect(() => assertResponseContract("GET", "/api/health", 404, json, structured)).toThrow(/budget_not_found/);
    // The framework's own: credentials on an API-key route, a body that fails its schema.
    expect(() => assertResponseContract("GET", "/v1/models/nope", 401, json, openAi("revoked_api_key"))).not.toThrow();
    expect(() =>
      assertResponseContract("POST", "/api/keys", 422, json, { detail: "x", code: "validation_error" }),
    ).not.toThrow();
  });
});

/** What a refusal of the controls sends (server/controls/control-errors.ts), on a route that runs turns. */
const INVOKE = "/services/agent/v0/invoke";
const budget = {
  id: "b1",
  name: "daily",
  scope: "project",
  window: "day",
  time_zone: "UTC",
  limit_usd: 1,
  spent_usd: 1.5,
  resets_at: "2026-01-02T00:00:00.000Z",
};
const rateLimited = {
  detail: "over",
  code: "rate_limited",
  limit: { policy: "api-key-requests", quota: 2, window_seconds: 60 },
};
const rateLimitHeaders = {
  ...json,
  "retry-after": "12",
  ratelimit: '"api-key-requests";r=0;t=12',
  "ratelimit-policy": '"api-key-requests";q=2;w=60',
};

describe("answers checked against the OpenAPI document", () => {
  it("admits the fields a refusal's code carries, and no field it does not declare", () => {
    expect(() =>
      assertResponseContract("POST", INVOKE, 402, json, { detail: "spent", code: "budget_exceeded", budget }),
    ).not.toThrow();
    expect(() =>
      assertResponseContract("POST", INVOKE, 403, json, {
        detail: "no",
        code: "model_not_allowed",
        model: "openai/gpt-5",
        rule: { owner: "the project's model allowlist", patterns: ["anthropic/*"] },
      }),
    ).not.toThrow();
    // A field of another code's, or a budget missing what the document says it has.
    expect(() =>
      assertResponseContract("POST", INVOKE, 402, json, { detail: "x", code: "budget_exceeded", budget, model: "m" }),
    ).toThrow(/402 with a body its OpenAPI document does not allow/);
    const { spent_usd: _spent, ...partial } = budget;
    expect(() =>
      assertResponseContract("POST", INVOKE, 402, json, { detail: "x", code: "budget_exceeded", budget: partial }),
    ).toThrow(/spent_usd/);
    // A code without fields of its own takes none.
    expect(() => assertResponseContract("POST", INVOKE, 404, json, { detail: "x", code: "not_found", budget })).toThrow(
      /does not allow/,
    );
  });

  it("admits the 429's Retry-After and RateLimit headers, and refuses one undocumented or malformed", () => {
    expect(() => assertResponseContract("POST", INVOKE, 429, rateLimitHeaders, rateLimited)).not.toThrow();
    expect(() =>
      assertResponseContract("POST", INVOKE, 429, { ...rateLimitHeaders, "retry-after": "soon" }, rateLimited),
    ).toThrow(/retry-after: soon, which its documented schema refuses/);
    expect(() =>
      assertResponseContract("POST", INVOKE, 429, { ...rateLimitHeaders, "x-svc-secret": "1" }, rateLimited),
    ).toThrow(/the header x-svc-secret, which its OpenAPI entry does not document/);
    expect(() => assertResponseContract("GET", "/api/health", 200, { "content-type": "text/plain" }, "ok")).toThrow(
      /without the header x-request-id/,
    );
  });

  it("refuses a status the operation does not document, and the project's error shape on the OpenAI door", () => {
    expect(() => assertResponseContract("GET", "/api/health", 201, json, {})).toThrow(
      /GET \/api\/health answered 201, a status its OpenAPI entry does not document/,
    );
    expect(() =>
      assertResponseContract("GET", "/v1/models/nope", 404, json, { detail: "x", code: "model_not_found" }),
    ).toThrow(/404 with a body its OpenAPI document does not allow/);
  });
});
