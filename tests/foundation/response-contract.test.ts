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
  },
});

describe("the response contract on the node:http door", () => {
  it("passes an answer that matches the route's declared schema", async () => {
    const contract = await answer((res) =>
      res.writeHead(200, { "content-type": "application/json; charset=utf-8" }).end(healthy),
    );
    expect(() => contract.assertNone()).not.toThrow();
  });

  it("fails on a JSON success body the schema does not allow, written at once or streamed in chunks", async () => {
    const atOnce = await answer((res) =>
      res.writeHead(200, { "content-type": "application/json" }).end('{"status":"down"}'),
    );
    expect(() => atOnce.assertNone()).toThrow(/GET \/api\/health answered 200 .*status/);
    const streamed = await answer((res) => {
      res.setHeader("content-type", "application/json");
      res.write('{"status":');
      res.end('"ok"}');
    });
    expect(() => streamed.assertNone()).toThrow(/database/);
  });

  it("passes an error whose code the framework answers on that route, and non-JSON bodies", async () => {
    const error = await answer((res) =>
      res.writeHead(500, { "content-type": "application/json" }).end('{"detail":"x","code":"internal_error"}'),
    );
    const text = await answer((res) => res.writeHead(200, { "content-type": "text/plain" }).end("ok"));
    expect(() => error.assertNone()).not.toThrow();
    expect(() => text.assertNone()).not.toThrow();
  });

  it("fails on an error code neither the framework nor the route's `errors` lists, naming both", async () => {
    const undeclared = await answer((res) =>
      res.writeHead(404, { "content-type": "application/json" }).end('{"detail":"x","code":"budget_not_found"}'),
    );
    expect(() => undeclared.assertNone()).toThrow(
      /GET \/api\/health answered 404 with code "budget_not_found".*add "budget_not_found" to the route's `errors`/,
    );
  });
});

describe("the error codes a route declares", () => {
  it("admits a declared code, in the project's shape or OpenAI's, and refuses one the route does not list", () => {
    const openAi = (code: string) => ({ error: { message: "x", type: "invalid_request_error", param: null, code } });
    expect(() =>
      assertResponseContract("GET", "/v1/models/nope", 404, "application/json", openAi("model_not_found")),
    ).not.toThrow();
    expect(() =>
      assertResponseContract("GET", "/v1/models/nope", 404, "application/json", openAi("budget_not_found")),
    ).toThrow(/GET \/v1\/models\/\{model\} answered 404 with code "budget_not_found"/);
    // A reference-compat answer (`detail` as an object) is read by its top-level code alike.
    const structured = { detail: { message: "x", code: "budget_not_found" }, code: "budget_not_found" };
    expect(() => assertResponseContract("GET", "/api/health", 404, "application/json", structured)).toThrow(
      /budget_not_found/,
    );
    // The framework's own: credentials on an API-key route, a body that fails its schema.
    expect(() =>
      assertResponseContract("GET", "/v1/models/nope", 401, "application/json", openAi("revoked_api_key")),
    ).not.toThrow();
    expect(() =>
      assertResponseContract("POST", "/api/keys", 422, "application/json", { detail: "x", code: "validation_error" }),
    ).not.toThrow();
  });
});
