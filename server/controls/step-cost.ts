import { costOf, type PriceOverride, type PricedModel, type TokenUsage } from "@/server/pricing";

/**
 * The one place the controls price a model step: server/pricing's cost (the project's own price,
 * else the catalog's list price at `at`). A model without a price costs 0 here, so a budget
 * cannot count it; pricing says why and Settings can give it a price.
 */
export function stepCostUsd(
  target: PricedModel,
  usage: TokenUsage,
  prices: readonly PriceOverride[],
  at: Date,
): number {
  const cost = costOf(usage, target, prices, at);
  return cost.priced ? cost.amounts.total : 0;
}
