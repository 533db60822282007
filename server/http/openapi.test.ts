import { z } from "zod";
import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "./openapi";
import { defineRoute, type AnyRoute } from "./route";

const info = { title: "t", version: "0" };

type Schema = {
  allOf?: Schema[];
  oneOf?: Schema[];
  $ref?: string;
  properties?: Record<string, Schema>;
  enum?: string[];
};
interface Answer {
  headers: Record<string, { $ref?: string; required?: boolean; schema?: object }>;
  content: { "application/json": { schema: Schema } };
}

function answerOf(route: AnyRoute, status: string): Answer | undefined {
  const operation = buildOpenApiDocument([route], info).paths[route.path][route.method.toLowerCase()] as {
    responses: Record<string, Answer>;
  };
  return operation.responses[status];
}

/**
 * The codes one error answer of the route's operation admits (those of the shared Error schema,
 * then each code with a schema of its own by name), or undefined when it has no such answer.
 */
function codesUnder(route: AnyRoute, status: string): string[] | undefined {
  const answer = answerOf(route, status);
  if (!answer) return undefined;
  const schema = answer.content["application/json"].schema;
  return (schema.oneOf ?? [schema]).flatMap((variant) =>
    variant.$ref ? [variant.$ref.split("/").pop()!] : variant.allOf![1].properties!.code.enum!,
  );
}

const budgetRoute = defineRoute({
  method: "PATCH",
  path: "/api/budgets/{id}",
  auth: "api_key",
  tag: "budgets",
  summary: "A route that declares its own codes",
  params: z.object({ id: z.uuid() }),
  body: z.object({ limit: z.number() }),
  response: z.object({}),
  errors: ["budget_not_found", "secret_not_found", "slug_taken"],
  handler: async () => ({}),
});

describe("the OpenAPI document's error answers", () => {
  it("lists a route's declared codes under their statuses, beside the framework's", () => {
    expect(codesUnder(budgetRoute, "404")).toEqual(["budget_not_found", "secret_not_found"]);
    // slug_taken carries `conflict`: its own schema, beside the shared one.
    expect(codesUnder(budgetRoute, "409")).toEqual(["duplicate", "SlugTakenError"]);
    // A code the catalog answers with two statuses is listed under both.
    expect(codesUnder(budgetRoute, "400")).toContain("secret_not_found");
    expect(codesUnder(budgetRoute, "400")).toEqual(
      expect.arrayContaining(["invalid_json", "invalid_path_parameter", "too_deep", "invalid_value"]),
    );
    expect(codesUnder(budgetRoute, "422")).toEqual(["validation_error"]);
    expect(codesUnder(budgetRoute, "500")).toEqual(["internal_error"]);
  });

  it("lists only the framework's codes for a route that declares none, and no status it cannot answer", () => {
    const health = defineRoute({
      method: "GET",
      path: "/api/health",
      auth: "none",
      tag: "system",
      summary: "No input, no credentials",
      response: z.object({}),
      handler: async () => ({}),
    });
    const operation = buildOpenApiDocument([health], info).paths["/api/health"].get as { responses: object };
    expect(Object.keys(operation.responses)).toEqual(["200", "500"]);
    expect(codesUnder(health, "500")).toEqual(["internal_error"]);
  });
});

const turnRoute = defineRoute({
  method: "POST",
  path: "/run",
  auth: "api_key",
  tag: "agent",
  summary: "A route refused by the controls",
  body: z.object({}),
  response: z.object({}),
  errors: ["budget_exceeded", "ingest_backlog_full", "rate_limited"],
  handler: async () => ({}),
});

describe("what a refusal carries besides its code", () => {
  it("gives a code with fields its own schema, carrying them, and documents every status's headers", () => {
    const document = buildOpenApiDocument([turnRoute], info);
    const schemas = document.components.schemas as unknown as Record<string, { properties: Record<string, object> }>;
    expect(Object.keys(schemas.BudgetExceededError.properties)).toEqual(["detail", "code", "errors", "budget"]);
    expect(schemas.RateLimitedError.properties.code).toEqual({ type: "string", const: "rate_limited" });
    expect(codesUnder(turnRoute, "402")).toEqual(["BudgetExceededError"]);
    // Retry-After is sent by both 429 codes; the RateLimit fields only by rate_limited.
    const tooMany = answerOf(turnRoute, "429")!;
    expect(codesUnder(turnRoute, "429")).toEqual(["ingest_backlog_full", "RateLimitedError"]);
    expect(tooMany.headers["Retry-After"]).toMatchObject({ required: true, schema: { type: "integer", minimum: 0 } });
    expect(tooMany.headers.RateLimit).toMatchObject({ schema: { type: "string" } });
    expect(tooMany.headers.RateLimit.required).toBeUndefined();
    // Every answer, success included, names its request id.
    expect(answerOf(turnRoute, "200")!.headers["X-Request-Id"]).toEqual({ $ref: "#/components/headers/RequestId" });
  });

  it("documents the OpenAI door's errors in OpenAI's shape, which carries no fields", () => {
    const door = { ...turnRoute, errorShape: "openai" as const };
    const schema = answerOf(door, "402")!.content["application/json"].schema;
    expect(schema.allOf![0]).toEqual({ $ref: "#/components/schemas/OpenAiError" });
    expect(schema.allOf![1].properties!.error.properties!.code.enum).toEqual(["budget_exceeded"]);
    expect(answerOf(door, "429")!.headers["Retry-After"]).toMatchObject({ required: true });
  });
});
