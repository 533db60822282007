import { describe, expect, it } from "vitest";
import { costOf } from "@/server/pricing";
import { DEFAULT_MODEL, DEFAULT_PROVIDER } from "../template";
import { CURATED_MODELS, getModel } from "./models";
import { PROVIDER_IDS } from "@/shared/providers";

describe("curated models", () => {
  it.each(PROVIDER_IDS)("%s has 3 to 5 models with unique ids, and the price catalog's list prices", (provider) => {
    const models = CURATED_MODELS[provider];
    expect(models.length).toBeGreaterThanOrEqual(3);
    expect(models.length).toBeLessThanOrEqual(5);
    expect(new Set(models.map((m) => m.id)).size).toBe(models.length);
    for (const model of models) {
      expect(model.display_name).not.toBe("");
      expect(model.context_window).toBeGreaterThan(0);
      // The picker's price is the one a run is costed at, or none for both.
      const cost = costOf({ prompt: 1000, completion: 0 }, { provider, model: model.id });
      if (cost.priced) expect(model.input_usd_per_mtok).toBeCloseTo(cost.amounts.total * 1000, 9);
      else expect(model.input_usd_per_mtok).toBeUndefined();
    }
    expect(models.some((m) => m.input_usd_per_mtok !== undefined)).toBe(true);
  });

  it("includes the built-in default model", () => {
    expect(getModel(DEFAULT_PROVIDER, DEFAULT_MODEL)).toBeDefined();
  });

  it("finds nothing for an unknown provider or model", () => {
    expect(getModel("openai", "gpt-2")).toBeUndefined();
    expect(getModel("constructor", "x")).toBeUndefined();
  });
});
