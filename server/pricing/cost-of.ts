import { catalogPrice } from "./catalog";
import { findOverride, type PriceOverride } from "./price-override";
import { priceUsage } from "./price-sheet";
import type { CostAmounts, TokenUsage } from "./usage";

/** The model a call went to. `deployment` is how a run reached it (our connections' field). */
export interface PricedModel {
  provider?: string;
  model: string;
  /** `custom`: the provider's API at a URL the project stored, which the catalog's list price does not describe. */
  deployment?: "direct" | "custom" | "bedrock" | "vertex";
}

export type Cost =
  | {
      priced: true;
      /** `project`: the project's own price for the model; `catalog`: the maintained catalog's list price. */
      source: "project" | "catalog";
      /** Per usage kind plus `total`, in USD. */
      amounts: CostAmounts;
      /** The price's own name for the model (the catalog's ids, or the override's). */
      priceOf: { provider: string; model: string };
    }
  | { priced: false; reason: string };

/**
 * What `usage` on `target` cost: the project's price for the model when it set one, else the
 * catalog's list price at `at`, else `priced: false` with why. A model behind a custom provider
 * or a custom endpoint has no list price: the project's price is the only one that applies.
 */
export function costOf(
  usage: TokenUsage,
  target: PricedModel,
  overrides: readonly PriceOverride[] = [],
  at: Date = new Date(),
): Cost {
  const override = findOverride(overrides, target.provider, target.model);
  if (override) {
    return {
      priced: true,
      source: "project",
      amounts: priceUsage(usage, override.prices),
      priceOf: { provider: override.provider, model: override.model },
    };
  }
  const where = target.provider ? `${target.provider} model "${target.model}"` : `model "${target.model}"`;
  if (target.provider?.toLowerCase() === "custom" || target.deployment === "custom") {
    return {
      priced: false,
      reason: `The ${where} is served by a custom endpoint, which has no list price; set the project's price for it in Settings > Model prices or with PUT /api/pricing/prices`,
    };
  }
  const entry = catalogPrice(catalogProvider(target), target.model, at);
  if (!entry)
    return {
      priced: false,
      reason: `The price catalog does not list the ${where}; set the project's price for it in Settings > Model prices or with PUT /api/pricing/prices`,
    };
  return {
    priced: true,
    source: "catalog",
    amounts: priceUsage(usage, entry.sheet),
    priceOf: { provider: entry.provider, model: entry.model },
  };
}

/** Bedrock and Vertex bill the vendor's models under the cloud's own price list. */
function catalogProvider(target: PricedModel): string | undefined {
  if (target.deployment === "bedrock") return "aws";
  if (target.deployment === "vertex") return "google";
  return target.provider;
}
