import { describe, expect, it } from "vitest";
import { errorOf, evaluate, outputsOf } from "./run";

const B = (key: string) => `svc:builtin:${key}:v0`;

describe("JSON evaluators", () => {
  it("field match reads a field by dot path, JSONPath or pointer; a non-JSON output is false", async () => {
    const out = '{"user": {"name": "Ada", "tags": ["x", "y"]}, "age": 36}';
    expect(
      await outputsOf(evaluate(B("field_match_test"), { json_field: "user.name" }, { correct_answer: "Ada" }, out)),
    ).toEqual({ success: true });
    expect(
      await outputsOf(evaluate(B("field_match_test"), { json_field: "$.user.tags[1]" }, { correct_answer: "y" }, out)),
    ).toEqual({ success: true });
    expect(
      await outputsOf(evaluate(B("field_match_test"), { json_field: "/age" }, { correct_answer: "36" }, out)),
    ).toEqual({ success: true });
    expect(
      await outputsOf(evaluate(B("field_match_test"), { json_field: "age" }, { correct_answer: "37" }, out)),
    ).toEqual({ success: false });
    expect(
      await outputsOf(evaluate(B("field_match_test"), { json_field: "age" }, { correct_answer: "36" }, "not json")),
    ).toEqual({ success: false });
    expect((await errorOf(evaluate(B("field_match_test"), {}, { correct_answer: "36" }, out))).message).toContain(
      "json_field is required",
    );
  });

  it("multi-field match scores each field and the fraction", async () => {
    const expected = { name: "Ada", address: { city: "London", zip: "N1" } };
    const params = { fields: ["name", "address.city", "$.address.zip"] };
    expect(
      await outputsOf(
        evaluate(
          B("json_multi_field_match"),
          params,
          { correct_answer: JSON.stringify(expected) },
          { name: "Ada", address: { city: "Paris", zip: "N1" } },
        ),
      ),
    ).toEqual({
      name: 1,
      "address.city": 0,
      "$.address.zip": 1,
      aggregate_score: 2 / 3,
    });
    expect(
      await outputsOf(evaluate(B("json_multi_field_match"), params, { correct_answer: expected }, "oops")),
    ).toEqual({ name: 0, "address.city": 0, "$.address.zip": 0, aggregate_score: 0 });
    expect(
      (await errorOf(evaluate(B("json_multi_field_match"), { fields: [] }, { correct_answer: expected }, "{}")))
        .message,
    ).toContain("non-empty list of paths");
    expect(
      (await errorOf(evaluate(B("json_multi_field_match"), { fields: ["$..a"] }, { correct_answer: expected }, "{}")))
        .message,
    ).toContain("not a JSONPath");
    expect((await errorOf(evaluate(B("json_multi_field_match"), params, { correct_answer: "plain" }, "{}"))).code).toBe(
      "missing_input",
    );
  });

  it("JSON diff scores matching flattened keys, with schema-only, predicted keys and key case options", async () => {
    const expected = { a: 1, b: { c: "x", d: [1, 2] } };
    const run = (params: Record<string, unknown>, output: unknown) =>
      outputsOf(evaluate(B("auto_json_diff"), params, { correct_answer: JSON.stringify(expected) }, output));
    expect(await run({}, { a: 1, b: { c: "x", d: [1, 2] } })).toEqual({ score: 1, success: true });
    expect(await run({}, { a: 2, b: { c: "x", d: [2] } })).toEqual({ score: 0.3333, success: false });
    expect(await run({ compare_schema_only: true }, { a: 2, b: { c: "y", d: [] } })).toEqual({
      score: 1,
      success: true,
    });
    expect(await run({ predict_keys: true }, { a: 1, b: { c: "x", d: [1, 2] }, extra: true })).toEqual({
      score: 0.75,
      success: true,
    });
    expect(await run({}, { A: 1, B: { C: "x", D: [1, 2] } })).toEqual({ score: 0, success: false });
    expect(await run({ case_insensitive_keys: true }, { A: 1, B: { C: "x", D: [1, 2] } })).toEqual({
      score: 1,
      success: true,
    });
    expect(await run({ threshold: 0.3 }, JSON.stringify({ a: 2, b: { c: "x" } }))).toEqual({
      score: 0.3333,
      success: true,
    });
    expect(await run({}, "not json")).toEqual({ score: 0, success: false });
  });
});

describe("similarity evaluators", () => {
  it("similarity is difflib's ratio against the threshold (or similarity_threshold)", async () => {
    const inputs = { correct_answer: "The capital is Paris" };
    expect(await outputsOf(evaluate(B("auto_similarity_match"), {}, inputs, "Paris is the capital"))).toEqual({
      score: 0.5,
      success: true,
    });
    expect(
      await outputsOf(
        evaluate(B("auto_similarity_match"), { similarity_threshold: 0.8 }, inputs, "Paris is the capital"),
      ),
    ).toEqual({ score: 0.5, success: false });
    expect(
      await outputsOf(
        evaluate(B("auto_similarity_match"), { case_sensitive: false }, { correct_answer: "ABCD" }, "bcde"),
      ),
    ).toEqual({ score: 0.75, success: true });
  });

  it("Levenshtein scores 1 − distance / longer length", async () => {
    const result = await outputsOf(
      evaluate(B("auto_levenshtein_distance"), { threshold: 0.6 }, { correct_answer: "kitten" }, "sitting"),
    );
    expect(result.score).toBeCloseTo(4 / 7, 12);
    expect(result.success).toBe(false);
    expect(
      await outputsOf(
        evaluate(B("auto_levenshtein_distance"), { case_sensitive: false }, { correct_answer: "Paris" }, "paris"),
      ),
    ).toEqual({ score: 1, success: true });
  });

  it("a threshold outside (0, 1] and over-long texts are refused with the reason", async () => {
    for (const threshold of [0, 1.5, "0.5", -1]) {
      const error = await errorOf(
        evaluate(B("auto_levenshtein_distance"), { threshold }, { correct_answer: "a" }, "a"),
      );
      expect(error.code).toBe("invalid_parameters");
      expect(error.message).toBe(
        `parameter threshold must be a number greater than 0 and at most 1 (e.g. 0.5); got ${JSON.stringify(threshold)}`,
      );
    }
    expect(
      await outputsOf(evaluate(B("auto_levenshtein_distance"), { threshold: 1 }, { correct_answer: "a" }, "a")),
    ).toEqual({ score: 1, success: true });
    const long = await errorOf(evaluate(B("auto_similarity_match"), {}, { correct_answer: "a" }, "x".repeat(20_001)));
    expect(long.code).toBe("input_too_large");
    const wide = await errorOf(
      evaluate(B("auto_levenshtein_distance"), {}, { correct_answer: "y".repeat(2_001) }, "x".repeat(2_000)),
    );
    expect(wide.message).toBe(
      "texts of 2000 and 2001 characters are too long to compare this way; use semantic similarity or an LLM judge for long texts",
    );
  });
});
