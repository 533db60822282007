import type { CostAmounts, TokenKind, TokenUsage } from "./usage";

/** A long-context price: `base` up to the first tier, each tier's price once the prompt exceeds its `start`. */
export interface TieredPrice {
  base: number;
  tiers: Array<{ start: number; price: number }>;
}

/**
 * USD per million tokens per kind. A kind without a price is billed at the price it is a part
 * of: cache reads and writes at the input price, 1-hour writes at the cache-write price,
 * reasoning at the output price (what providers do when they list no separate price).
 */
export type PriceSheet = Partial<Record<TokenKind, number | TieredPrice>>;

const FALLBACK: Record<TokenKind, TokenKind | undefined> = {
  prompt: undefined,
  completion: undefined,
  cache_read: "prompt",
  cache_write: "prompt",
  cache_write_1h: "cache_write",
  reasoning: "completion",
};

/**
 * The cost of `usage` at `sheet`, per kind. Tiers are chosen by the call's whole prompt (cached
 * parts included), as the catalog's providers bill them.
 */
export function priceUsage(usage: TokenUsage, sheet: PriceSheet): CostAmounts {
  const prompt = usage.prompt ?? 0;
  const completion = usage.completion ?? 0;
  const reasoning = Math.min(usage.reasoning ?? 0, completion);
  const cached = (usage.cache_read ?? 0) + (usage.cache_write ?? 0) + (usage.cache_write_1h ?? 0);
  // Each token is billed once: the cached and reasoning parts leave the plain input and output.
  const billed: Record<TokenKind, number> = {
    prompt: Math.max(0, prompt - cached),
    completion: completion - reasoning,
    cache_read: usage.cache_read ?? 0,
    cache_write: usage.cache_write ?? 0,
    cache_write_1h: usage.cache_write_1h ?? 0,
    reasoning,
  };
  const amounts: CostAmounts = { total: 0 };
  for (const kind of Object.keys(billed) as TokenKind[]) {
    const tokens = billed[kind];
    if (tokens <= 0 && kind !== "prompt" && kind !== "completion") continue;
    const amount = (tokens * perMillion(sheet, kind, prompt)) / 1_000_000;
    amounts[kind] = amount;
    amounts.total += amount;
  }
  return amounts;
}

function perMillion(sheet: PriceSheet, kind: TokenKind, prompt: number): number {
  let price = sheet[kind];
  for (let k = FALLBACK[kind]; price === undefined && k; k = FALLBACK[k]) price = sheet[k];
  if (price === undefined) return 0;
  if (typeof price === "number") return price;
  let current = price.base;
  for (const tier of price.tiers) if (prompt > tier.start) current = tier.price;
  return current;
}
