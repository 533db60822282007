import { describe, expect, it } from "vitest";
import { errorOf, evaluate, outputsOf } from "./run";

const MATCH = "svc:builtin:match:v0";
const inputs = { city: "Paris", expected: { name: "Ada", age: 36 } };
const outputs = { answer: "The capital is Paris.", profile: '{"name": "Ada", "age": 37}' };

describe("match evaluator", () => {
  it("checks leaves against literals and selectors, merges results under their keys, and combines them", async () => {
    const matchers = [
      { key: "mentions_city", target: "$.outputs.answer", match: "contains", reference: "$.inputs.city" },
      { key: "polite", target: "/outputs/answer", match: "starts_with", reference: "the", case_sensitive: false },
      {
        key: "profile",
        target: "$.outputs.profile",
        mode: "json",
        match: "diff",
        reference: "$.inputs.expected",
        threshold: 0.9,
        weight: 2,
      },
    ];
    const result = await outputsOf(evaluate(MATCH, { matchers }, inputs, outputs));
    expect(result).toEqual({
      score: (1 + 1 + 0.5 * 2) / 4,
      success: false,
      mentions_city: { success: true, score: 1 },
      polite: { success: true, score: 1 },
      profile: { success: false, score: 0.5 },
    });
    expect(await outputsOf(evaluate(MATCH, { matchers, score: "min", success: "any" }, inputs, outputs))).toMatchObject(
      { score: 0.5, success: true },
    );
    expect(
      await outputsOf(
        evaluate(MATCH, { matchers, score: "max", success: "threshold", threshold: 0.9 }, inputs, outputs),
      ),
    ).toMatchObject({ score: 1, success: true });
  });

  it("regex, similarity measures, any/all, valid JSON and nested groups", async () => {
    const matchers = [
      { key: "digits", target: "$.outputs.answer", match: "regex", reference: "capital\\s+is" },
      {
        key: "close",
        target: "$.outputs.answer",
        match: "similarity",
        similarity: "levenshtein",
        reference: "The capital is Paris!",
        threshold: 0.9,
      },
      {
        key: "words",
        target: "$.outputs.answer",
        match: "similarity",
        similarity: "cosine",
        reference: "Paris is the capital",
        threshold: 0.8,
        case_sensitive: false,
      },
      { key: "any", target: "$.outputs.answer", match: "contains", contains: "any", references: ["Rome", "Paris"] },
      {
        key: "group",
        matchers: [
          { key: "json", target: "$.outputs.profile", mode: "json", match: "valid" },
          { key: "all", target: "$.outputs.answer", match: "contains", references: ["Rome", "Paris"] },
        ],
      },
    ];
    const result = await outputsOf(evaluate(MATCH, { matchers, success: "any" }, inputs, outputs));
    expect(result.digits).toEqual({ success: true, score: 1 });
    expect((result.close as { score: number }).score).toBeCloseTo(20 / 21, 10);
    expect((result.words as { score: number }).score).toBeCloseTo(1, 10);
    expect(result.any).toEqual({ success: true, score: 1 });
    expect(result.group).toEqual({
      success: false,
      score: 0.5,
      json: { success: true, score: 1 },
      all: { success: false, score: 0 },
    });
  });

  it("data problems fail one node with the reason; configuration problems fail the evaluator", async () => {
    const missing = await outputsOf(
      evaluate(MATCH, { matchers: [{ key: "x", target: "$.outputs.nope", match: "valid" }] }, inputs, outputs),
    );
    expect(missing).toEqual({
      score: 0,
      success: false,
      x: {
        success: false,
        score: 0,
        error: 'target "$.outputs.nope" is not in the request (it has inputs, outputs, trace)',
      },
    });
    expect((await errorOf(evaluate(MATCH, { matchers: [] }, inputs, outputs))).message).toContain(
      "matchers must be a non-empty list",
    );
    expect(
      (await errorOf(evaluate(MATCH, { matchers: [{ key: "a", match: "fuzzy" }] }, inputs, outputs))).message,
    ).toContain("parameter match must be one of valid, exact");
    expect(
      (await errorOf(evaluate(MATCH, { matchers: [{ key: "a", match: "contains" }] }, inputs, outputs))).message,
    ).toContain("needs reference or references");
    expect(
      (
        await errorOf(
          evaluate(MATCH, { matchers: [{ key: "a", match: "regex", reference: "(?=x)" }] }, inputs, outputs),
        )
      ).code,
    ).toBe("invalid_parameters");
    expect(
      (await errorOf(evaluate(MATCH, { matchers: [{ key: "a" }, { key: "a" }] }, inputs, outputs))).message,
    ).toContain("used twice");
  });
});
