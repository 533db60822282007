import { describe, expect, it } from "vitest";
import { comparableModel } from "@/components/editor/comparable-model";
import { CURATED_MODELS } from "@/server/agent-template/catalog/models";

const model = (provider: keyof typeof CURATED_MODELS, id: string) => CURATED_MODELS[provider].find((m) => m.id === id)!;

describe("comparableModel over the curated catalog", () => {
  it.each([
    ["openai", "gpt-5-nano", "anthropic", "claude-haiku-4-5"],
    ["openai", "gpt-5-mini", "anthropic", "claude-haiku-4-5"],
    ["openai", "gpt-5", "anthropic", "claude-sonnet-4-5"],
    ["anthropic", "claude-opus-4-5", "openai", "gpt-5"],
    ["anthropic", "claude-sonnet-4-5", "openai", "gpt-5"],
    // $1/$5 is nearer $1.25/$10 than $0.30/$2.50: comparable means comparable price.
    ["anthropic", "claude-haiku-4-5", "gemini", "gemini-2.5-pro"],
    ["openai", "gpt-5-mini", "gemini", "gemini-2.5-flash"],
    ["openai", "gpt-5", "gemini", "gemini-2.5-pro"],
    ["gemini", "gemini-2.5-flash-lite", "openai", "gpt-5-nano"],
    // The price catalog lists Mistral Medium at $1.50/$7.50: Codestral ($0.30/$0.90) is nearer $0.25/$2.
    ["openai", "gpt-5-mini", "mistral", "codestral-latest"],
    ["openai", "gpt-5-nano", "mistral", "mistral-small-latest"],
  ] as const)("%s %s -> %s %s", (fromProvider, fromModel, toProvider, expected) => {
    expect(comparableModel(model(fromProvider, fromModel), CURATED_MODELS[toProvider])).toBe(expected);
  });

  it("picks the middle tier for a model without a price (a custom id), and nothing from an empty list", () => {
    expect(comparableModel(undefined, CURATED_MODELS.anthropic)).toBe("claude-sonnet-4-5");
    expect(comparableModel(undefined, CURATED_MODELS.openai)).toBe("gpt-5-mini");
    expect(comparableModel(model("openai", "gpt-5"), [])).toBeUndefined();
  });

  it("breaks a tie towards the cheaper model", () => {
    const cheap = { id: "cheap", input_usd_per_mtok: 1, output_usd_per_mtok: 1 };
    const dear = { id: "dear", input_usd_per_mtok: 4, output_usd_per_mtok: 4 };
    expect(comparableModel({ id: "x", input_usd_per_mtok: 2, output_usd_per_mtok: 2 }, [dear, cheap])).toBe("cheap");
  });
});
