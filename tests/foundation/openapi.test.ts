import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiRoutes } from "@/server/boot";
import { errorCodes } from "@/server/core/errors";
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

  it("lists the error code catalog, and the codes the router raises before a handler runs", async () => {
    const res = await t.call("GET", "/api/openapi.json");
    expect(res.body.components.schemas.Error.properties.code.enum).toEqual(Object.keys(errorCodes));
    const create = res.body.paths["/api/keys"].post;
    const codesOf = (status: string) => create.responses[status].content["application/json"].schema.allOf[1];
    expect(codesOf("401").properties.code.enum).toContain("revoked_api_key");
    expect(codesOf("403").properties.code.enum).toEqual(["insufficient_role", "missing_scope"]);
    expect(codesOf("422").properties.code.enum).toEqual(["validation_error"]);
  });
});
