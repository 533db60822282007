import { z } from "zod";
import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "./openapi";
import { defineRoute, type AnyRoute } from "./route";

const info = { title: "t", version: "0" };

/** The `code` enum of one error answer of the route's operation, or undefined when it has no such answer. */
function codesUnder(route: AnyRoute, status: string): string[] | undefined {
  const operation = buildOpenApiDocument([route], info).paths[route.path][route.method.toLowerCase()] as {
    responses: Record<string, { content: { "application/json": { schema: { allOf: { properties?: object }[] } } } }>;
  };
  const answer = operation.responses[status];
  return (
    answer && (answer.content["application/json"].schema.allOf[1].properties as { code: { enum: string[] } }).code.enum
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
    expect(codesUnder(budgetRoute, "409")).toEqual(["duplicate", "slug_taken"]);
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
