export { usageFromAiSdk, type AiSdkUsage } from "./ai-sdk-usage";
export { catalogPrice, type CatalogEntry } from "./catalog";
export { costOf, type Cost, type PricedModel } from "./cost-of";
export { findOverride, type PriceOverride } from "./price-override";
export { priceUsage, type PriceSheet, type TieredPrice } from "./price-sheet";
export { addUsage, TOKEN_KINDS, totalTokens, type CostAmounts, type TokenKind, type TokenUsage } from "./usage";
export { deletePriceOverride, listPriceOverrides, projectPrices, setPriceOverride } from "./price-store";
export { priceOverrideInput, priceOverrideWire, type PriceOverrideInput, type PriceOverrideWire } from "./price-wire";
export { pricingRoutes } from "./routes";
