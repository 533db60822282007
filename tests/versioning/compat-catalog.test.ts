import Ajv2020 from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createArtifact, expectStatus, setup, type Ctx } from "./helpers";

let c: Ctx;
beforeAll(async () => {
  c = await setup();
});
afterAll(() => c.t.close());

const ajv = () => new Ajv2020({ strict: false });
const get = (path: string) => c.t.call("GET", path, { key: c.key });

describe("evaluator catalog", () => {
  it("lists the built-in templates, each with a parameters schema that accepts its presets and refuses nonsense", async () => {
    const res = await get("/api/evaluators/catalog/templates");
    expectStatus(res, 200);
    const templates = res.body.templates as {
      key: string;
      name: string;
      data: { uri: string; schemas: { parameters: object; outputs: object } };
    }[];
    expect(res.body.count).toBe(19);
    expect(templates.map((t) => t.key)).toEqual([
      "auto_exact_match",
      "auto_regex_test",
      "auto_json_diff",
      "auto_similarity_match",
      "auto_ai_critique",
      "auto_custom_code_run",
      "trajectory_match",
      "auto_contains",
      "auto_starts_with",
      "auto_ends_with",
      "auto_contains_any",
      "auto_contains_all",
      "auto_contains_json",
      "field_match_test",
      "json_multi_field_match",
      "auto_levenshtein_distance",
      "auto_semantic_similarity",
      "auto_webhook_test",
      "match",
    ]);
    expect(templates.slice(0, 7).map((t) => t.name)).toEqual([
      "Exact match",
      "Regex",
      "JSON match",
      "Similarity",
      "LLM-as-a-judge",
      "Code",
      "Tool-call trajectory",
    ]);

    const presets = (await get("/api/evaluators/catalog/presets")).body.presets as {
      key: string;
      template_key: string;
      data: { uri: string; parameters: unknown };
    }[];
    expect(presets.length).toBeGreaterThanOrEqual(5);
    for (const t of templates) {
      // The compat API's prefix, which its clients compare; a revision may store either.
      expect(t.data.uri).toBe(`agenta:builtin:${t.key}:v0`);
      const validate = ajv().compile(t.data.schemas.parameters);
      expect(validate({ unknown_parameter: 1 }), t.key).toBe(false);
      for (const p of presets.filter((p) => p.template_key === t.key)) {
        expect(p.data.uri).toBe(t.data.uri);
        expect(validate(p.data.parameters), `${p.key}: ${JSON.stringify(validate.errors)}`).toBe(true);
      }
      ajv().compile(t.data.schemas.outputs);
      const one = await get(`/api/evaluators/catalog/templates/${t.key}`);
      expect(one.body).toEqual({ count: 1, template: t });
    }
    expect(new Set(presets.map((p) => p.template_key)).size).toBeGreaterThanOrEqual(4);

    const regex = ajv().compile(templates[1].data.schemas.parameters);
    expect(regex({})).toBe(false);
    expect(regex({ regex_pattern: "^a" })).toBe(true);
    const trajectory = ajv().compile(templates[6].data.schemas.parameters);
    expect(trajectory({ mode: "any_order", compare_arguments: true })).toBe(true);
    expect(trajectory({ mode: "fuzzy" })).toBe(false);

    const judges = await get("/api/evaluators/catalog/presets?template_key=auto_ai_critique");
    expect(judges.body.presets.map((p: { key: string }) => p.key)).toEqual(["hallucination", "answer_relevance"]);
    expectStatus(await get("/api/evaluators/catalog/presets?colour=red"), 422);
    const missing = await get("/api/evaluators/catalog/templates/auto_nope");
    expectStatus(missing, 200);
    expect(missing.body).toEqual({ count: 0, detail: expect.stringContaining("auto_exact_match") });
    expectStatus(await c.t.call("GET", "/api/evaluators/catalog/templates"), 401);
  });

  it("an evaluator revision naming a built-in template must carry parameters it accepts", async () => {
    const presets = (await get("/api/evaluators/catalog/presets")).body.presets as { data: Record<string, unknown> }[];
    for (const preset of presets) {
      const created = await createArtifact(c, "evaluators", { data: preset.data });
      expect(created.revision!.data).toEqual(preset.data);
    }
    const { variant } = await createArtifact(c, "evaluators");
    const commit = (data: Record<string, unknown>) =>
      c.t.call("POST", "/api/evaluators/revisions/commit", {
        key: c.key,
        body: { evaluator_revision: { evaluator_variant_id: variant.id, data } },
      });

    const bad = await commit({ uri: "svc:builtin:auto_similarity_match:v0", parameters: { similarity_threshold: 2 } });
    expectStatus(bad, 400);
    expect(bad.body.code).toBe("invalid_evaluator_parameters");
    expect(bad.body.errors[0].path).toBe("data.parameters.similarity_threshold");
    const badRegex = await commit({ uri: "svc:builtin:auto_regex_test:v0", parameters: { regex_pattern: "(" } });
    expectStatus(badRegex, 400);
    expect(badRegex.body.detail).toContain("regex_pattern");
    // Patterns run on RE2 (linear time), so a lookahead is refused when saved, not at run time.
    expectStatus(await commit({ uri: "svc:builtin:auto_regex_test:v0", parameters: { regex_pattern: "a(?=b)" } }), 400);
    expectStatus(await commit({ uri: "svc:builtin:trajectory_match:v0", parameters: { mode: "any_order" } }), 200);
    const unknown = await commit({ uri: "svc:builtin:auto_mind_reading:v0" });
    expectStatus(unknown, 400);
    expect(unknown.body.detail).toContain("svc:builtin:auto_exact_match:v0");
    // The user's own evaluators are not ours to check.
    expectStatus(await commit({ uri: "https://example.com/grade", parameters: { anything: true } }), 200);
    expectStatus(await commit({ uri: "svc:builtin:auto_exact_match:v0" }), 200);
    // The compat API's own prefix names the same built-ins, checked the same way and stored as sent.
    const agenta = await commit({ uri: "agenta:builtin:auto_regex_test:v0", parameters: { regex_pattern: "(" } });
    expectStatus(agenta, 400);
    expect(agenta.body.code).toBe("invalid_evaluator_parameters");
    expectStatus(await commit({ uri: "agenta:builtin:auto_mind_reading:v0" }), 400);
    const kept = await commit({ uri: "agenta:builtin:auto_regex_test:v0", parameters: { regex_pattern: "please" } });
    expectStatus(kept, 200);
    expect(kept.body.evaluator_revision.data.uri).toBe("agenta:builtin:auto_regex_test:v0");
  });
});

describe("catalog types prompt-template and model", () => {
  it("prompt-template validates the application prompt shape and points its model at the model type", async () => {
    const res = await get("/api/workflows/catalog/types/prompt-template");
    expectStatus(res, 200);
    const schema = res.body.type.json_schema;
    expect(schema.$schema).toContain("2020-12");
    const validate = ajv().compile(schema);
    const prompt = {
      messages: [
        { role: "system", content: "You answer about {{topic}}." },
        { role: "user", content: "{{question}}" },
      ],
      llm_config: { model: "openai/gpt-5-mini", temperature: 0.2, max_tokens: 500, top_p: 1 },
      template_format: "curly",
    };
    expect(validate(prompt), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...prompt, template_format: "mustache" })).toBe(false);
    expect(validate({ ...prompt, llm_config: { temperature: 0.2 } })).toBe(false);
    expect(validate({ ...prompt, messages: [{ role: "robot", content: "x" }] })).toBe(false);
    expect(schema.properties.llm_config.properties.model["x-catalog-type"]).toBe("model");
  });

  it("model lists the curated models per provider as choices", async () => {
    const res = await get("/api/workflows/catalog/types/model");
    expectStatus(res, 200);
    const schema = res.body.type.json_schema;
    expect(schema.type).toBe("string");
    expect(schema["x-choices"].openai).toContain("openai/gpt-5-mini");
    expect(schema["x-choices"].anthropic).toContain("anthropic/claude-sonnet-4-5");
    expect(schema.examples).toContain("gemini/gemini-2.5-pro");
    const list = await get("/api/workflows/catalog/types");
    expect(list.body.types.map((t: { key: string }) => t.key)).toEqual([
      "agent-template",
      "messages",
      "prompt-template",
      "model",
    ]);
  });
});

describe("catalog routes the compat API's clients call", () => {
  it("serves a template's presets, and one preset, with GET or POST; unknown template or preset is {count: 0} naming the known ones", async () => {
    for (const method of ["GET", "POST"] as const) {
      const list = await c.t.call(method, "/api/evaluators/catalog/templates/auto_ai_critique/presets", { key: c.key });
      expectStatus(list, 200);
      expect(list.body.presets.map((p: { key: string }) => p.key)).toEqual(["hallucination", "answer_relevance"]);
      const one = await c.t.call(method, "/api/evaluators/catalog/templates/auto_ai_critique/presets/hallucination", {
        key: c.key,
      });
      expectStatus(one, 200);
      expect(one.body).toEqual({ count: 1, preset: list.body.presets[0] });
    }
    const wrongTemplate = await get("/api/evaluators/catalog/templates/auto_regex_test/presets/hallucination");
    expect(wrongTemplate.body).toEqual({ count: 0, detail: expect.stringContaining("json_object_output") });
    expect((await get("/api/evaluators/catalog/templates/auto_nope/presets")).body).toMatchObject({
      count: 0,
      presets: [],
    });
    for (const preset of (await get("/api/evaluators/catalog/presets")).body.presets)
      expect(preset.data.uri).toBe(`agenta:builtin:${preset.template_key}:v0`);
  });

  it("serves the catalog types under applications and evaluators too, each schema naming its type at the top level", async () => {
    for (const domain of ["workflows", "applications", "evaluators"]) {
      const list = await get(`/api/${domain}/catalog/types`);
      expectStatus(list, 200);
      for (const type of list.body.types as { key: string; json_schema: Record<string, unknown> }[]) {
        expect(type.json_schema["x-catalog-type"]).toBe(type.key);
        // The reference's marker, which its clients compare.
        expect(type.json_schema["x-ag-type"]).toBe(type.key);
      }
      const one = await get(`/api/${domain}/catalog/types/agent-template`);
      expect(one.body.type.json_schema["x-catalog-type"]).toBe("agent-template");
      expectStatus(await get(`/api/${domain}/catalog/types/nope`), 404);
    }
  });
});
