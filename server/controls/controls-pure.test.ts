import { describe, expect, it } from "vitest";
import { aliasOrder } from "./alias-order";
import { refusingRule } from "./model-allowlist";

describe("refusingRule", () => {
  const project = { owner: "the project's model allowlist", patterns: ["anthropic/*", "openai/gpt-5-mini"] };
  const key = { owner: "API key k's model allowlist", patterns: ["anthropic/claude-haiku-*"] };

  it("allows what every rule allows", () => {
    expect(refusingRule("anthropic/claude-haiku-4-5", [project, key])).toBeUndefined();
    expect(refusingRule("openai/gpt-5-mini", [project])).toBeUndefined();
  });

  it("names the first rule that refuses", () => {
    expect(refusingRule("openai/gpt-5", [project, key])).toBe(project);
    expect(refusingRule("anthropic/claude-opus-4-1", [project, key])).toBe(key);
  });

  it("`*` stays within the model name; `**` crosses a slash", () => {
    expect(refusingRule("openrouter/meta/llama", [{ owner: "o", patterns: ["openrouter/*"] }])).toBeDefined();
    expect(refusingRule("openrouter/meta/llama", [{ owner: "o", patterns: ["openrouter/**"] }])).toBeUndefined();
  });
});

describe("aliasOrder", () => {
  const a = { model: "a" };
  const b = { model: "b", weight: 1 };
  const c = { model: "c", weight: 3 };

  it("keeps the listed order without weights", () => {
    expect(aliasOrder([a, { model: "x" }], 0.9).map((e) => e.model)).toEqual(["a", "x"]);
  });

  it("draws the first attempt by weight, then the rest in order", () => {
    expect(aliasOrder([a, b, c], 0.1).map((e) => e.model)).toEqual(["b", "a", "c"]);
    expect(aliasOrder([a, b, c], 0.5).map((e) => e.model)).toEqual(["c", "a", "b"]);
    expect(aliasOrder([a, b, c], 0.99).map((e) => e.model)).toEqual(["c", "a", "b"]);
  });
});
