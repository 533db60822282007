import type { TokenKind } from "./usage";

/**
 * A project's own price for one model: USD per million tokens per usage kind. It replaces the
 * catalog's price for that provider and model entirely; kinds it leaves out are billed at the
 * price they are a part of (see PriceSheet).
 */
export interface PriceOverride {
  /** As runs and spans name it: `openai`, `anthropic`, `custom` (a custom provider), `gcp.vertex_ai`, ... */
  provider: string;
  model: string;
  prices: Partial<Record<TokenKind, number>>;
}

/** The override for this provider and model, compared without case. */
export function findOverride(
  overrides: readonly PriceOverride[],
  provider: string | undefined,
  model: string,
): PriceOverride | undefined {
  const p = provider?.toLowerCase();
  const m = model.toLowerCase();
  return overrides.find((o) => o.provider.toLowerCase() === p && o.model.toLowerCase() === m);
}
