import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectStatus, setup, type Ctx } from "../versioning/helpers";

// The reference's evaluator catalog tests: built-ins named `agenta:builtin:<key>:v0`, and a
// template or preset that does not exist answered as `{count: 0}` (presets: an empty list).

let c: Ctx;
beforeAll(async () => {
  c = await setup();
});
afterAll(() => c.t.close());

const get = (path: string) => c.t.call("GET", `/api/evaluators/catalog/templates${path}`, { key: c.key });

describe("the evaluator catalog as the reference's clients read it", () => {
  it("names the template and its presets by agenta:builtin:<key>:v0", async () => {
    const template = await get("/auto_ai_critique");
    expect(template.body).toMatchObject({ count: 1, template: { key: "auto_ai_critique" } });
    expect(template.body.template.data.uri).toBe("agenta:builtin:auto_ai_critique:v0");
    expect(template.body.template.data.schemas.parameters).toBeTypeOf("object");
    const presets = await get("/auto_ai_critique/presets/");
    expect(presets.body.count).toBe(presets.body.presets.length);
    for (const preset of presets.body.presets) expect(preset.data.uri).toBe("agenta:builtin:auto_ai_critique:v0");
    const one = await get("/auto_ai_critique/presets/hallucination");
    expect(one.body.preset.data.uri).toBe("agenta:builtin:auto_ai_critique:v0");
  });

  it("an evaluator committed with the catalog's uri is checked against the template like svc:builtin", async () => {
    const bad = await c.t.call("POST", "/api/simple/evaluators/", {
      key: c.key,
      body: {
        evaluator: {
          name: "judge",
          data: { uri: "agenta:builtin:auto_regex_test:v0", parameters: { regex_pattern: "(" } },
        },
      },
    });
    expectStatus(bad, 400);
    const good = await c.t.call("POST", "/api/simple/evaluators/", {
      key: c.key,
      body: {
        evaluator: {
          name: "polite",
          data: { uri: "agenta:builtin:auto_regex_test:v0", parameters: { regex_pattern: "please" } },
        },
      },
    });
    expect(good.body.evaluator.data.uri).toBe("agenta:builtin:auto_regex_test:v0");
  });

  it("a template or preset that does not exist is {count: 0}", async () => {
    expect((await get("/does_not_exist_xyz")).body).toMatchObject({ count: 0 });
    expect((await get("/does_not_exist_xyz")).body.template).toBeUndefined();
    expect((await get("/does_not_exist_xyz/presets/")).body).toMatchObject({ count: 0, presets: [] });
    expect((await get("/auto_ai_critique/presets/does_not_exist_xyz")).body).toMatchObject({ count: 0 });
    expect((await get("/does_not_exist_xyz/presets/hallucination")).body).toMatchObject({ count: 0 });
  });
});
