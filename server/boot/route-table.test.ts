import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "@/server/http/openapi";
import { allRoutes } from "./route-table";

describe("the route table's response contracts", () => {
  it("every route declares its success body: a response schema, or that it sends no JSON body", () => {
    const undeclared = allRoutes.filter((r) => !r.response && !r.noJsonBody).map((r) => `${r.method} ${r.path}`);
    expect(undeclared).toEqual([]);
  });

  it("no route declares both", () => {
    expect(allRoutes.filter((r) => r.response && r.noJsonBody).map((r) => `${r.method} ${r.path}`)).toEqual([]);
  });

  it("every response schema becomes JSON Schema in the OpenAPI document", () => {
    const document = buildOpenApiDocument(allRoutes, { title: "t", version: "0" });
    for (const route of allRoutes) {
      const success = (
        document.paths[route.path][route.method.toLowerCase()] as {
          responses: Record<string, { content?: Record<string, unknown> }>;
        }
      ).responses[String(route.status ?? 200)];
      if (route.response) expect(success.content?.["application/json"], `${route.method} ${route.path}`).toBeDefined();
    }
  });
});
