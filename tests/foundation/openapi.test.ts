import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiRoutes } from "@/server/boot";
import { createTestApp, type TestApp } from "../helpers/test-app";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe("OpenAPI", () => {
  it("documents every route with the schemas the router validates with", async () => {
    const res = await t.call("GET", "/api/openapi.json");
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe("3.1.0");
    for (const route of apiRoutes) {
      expect(res.body.paths[route.path]?.[route.method.toLowerCase()], `${route.method} ${route.path}`).toBeDefined();
    }
    const create = res.body.paths["/api/keys"].post;
    expect(create.requestBody.content["application/json"].schema.properties.name.type).toBe("string");
    expect(create.requestBody.content["application/json"].schema.additionalProperties).toBe(false);
    expect(create.responses["201"]).toBeDefined();
    expect(create.responses["422"]).toBeDefined();
  });
});
