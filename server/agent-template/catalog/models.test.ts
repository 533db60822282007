import { describe, expect, it } from "vitest";
import { DEFAULT_MODEL, DEFAULT_PROVIDER } from "../template";
import { CURATED_MODELS, estimateCostUsd, getModel } from "./models";
import { PROVIDER_IDS } from "@/shared/providers";

describe("curated models", () => {
  it.each(PROVIDER_IDS)("%s has 3 to 5 priced models with unique ids", (provider) => {
    const models = CURATED_MODELS[provider];
    expect(models.length).toBeGreaterThanOrEqual(3);
    expect(models.length).toBeLessThanOrEqual(5);
    expect(new Set(models.map((m) => m.id)).size).toBe(models.length);
    for (const model of models) {
      expect(model.display_name).not.toBe("");
      expect(model.context_window).toBeGreaterThan(0);
      expect(model.input_usd_per_mtok).toBeGreaterThan(0);
      expect(model.output_usd_per_mtok).toBeGreaterThanOrEqual(model.input_usd_per_mtok);
    }
  });

  it("includes the built-in default model", () => {
    expect(getModel(DEFAULT_PROVIDER, DEFAULT_MODEL)).toBeDefined();
  });

  it("finds nothing for an unknown provider or model", () => {
    expect(getModel("openai", "gpt-2")).toBeUndefined();
    expect(getModel("constructor", "x")).toBeUndefined();
  });

  it("prices a turn at list price", () => {
    expect(estimateCostUsd("openai", "gpt-5-mini", { input: 1_000_000, output: 500_000 })).toBeCloseTo(0.25 + 1);
    expect(estimateCostUsd("openai", "unknown", { input: 1, output: 1 })).toBeUndefined();
  });
});
