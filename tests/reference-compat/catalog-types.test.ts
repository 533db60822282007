import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectStatus, setup, type Ctx } from "../versioning/helpers";

// The reference's catalog type test: `GET /applications/catalog/types/` lists the types, and the
// prompt-template schema is an object marked `x-ag-type: "prompt-template"`.

let c: Ctx;
beforeAll(async () => {
  c = await setup();
});
afterAll(() => c.t.close());

describe("catalog types as the reference's clients read them", () => {
  it("marks every type's schema with x-ag-type, under each domain's catalog", async () => {
    for (const domain of ["applications", "workflows", "evaluators"]) {
      // The reference client calls it with a trailing slash.
      const res = await c.t.call("GET", `/api/${domain}/catalog/types/`, { key: c.key });
      expectStatus(res, 200);
      expect(res.body.count).toBe(res.body.types.length);
      const prompt = res.body.types.find((t: { key: string }) => t.key === "prompt-template");
      expect(prompt.json_schema).toMatchObject({ "x-ag-type": "prompt-template", type: "object" });
      const model = await c.t.call("GET", `/api/${domain}/catalog/types/model`, { key: c.key });
      expect(model.body.type.json_schema["x-ag-type"]).toBe("model");
    }
  });
});
