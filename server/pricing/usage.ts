/**
 * Token counts of one model call (or a sum of them), keyed like `ag.metrics.tokens.incremental`
 * on a span. `prompt` is every input token, cached or not (what `gen_ai.usage.input_tokens`
 * counts); `cache_read`, `cache_write` (a 5-minute or unspecified-TTL cache write) and
 * `cache_write_1h` are parts of it. `completion` is every output token; `reasoning` is part of it.
 */
export const TOKEN_KINDS = [
  "prompt",
  "completion",
  "cache_read",
  "cache_write",
  "cache_write_1h",
  "reasoning",
] as const;

export type TokenKind = (typeof TOKEN_KINDS)[number];

export type TokenUsage = Partial<Record<TokenKind, number>>;

/**
 * What a call cost, keyed like `ag.metrics.costs.incremental`: a partition, so `total` is the sum
 * of the others. `prompt` is the uncached input, `completion` the output other than reasoning.
 */
export type CostAmounts = Partial<Record<TokenKind, number>> & { total: number };

/** The sum of several calls' usage (a turn's steps); a kind no call reported stays absent. */
export function addUsage(...usages: Array<TokenUsage | undefined>): TokenUsage {
  const sum: TokenUsage = {};
  for (const usage of usages) {
    if (!usage) continue;
    for (const kind of TOKEN_KINDS) {
      const n = usage[kind];
      if (n !== undefined) sum[kind] = (sum[kind] ?? 0) + n;
    }
  }
  return sum;
}

/** `prompt + completion`: the span's `tokens.incremental.total`. */
export function totalTokens(usage: TokenUsage): number {
  return (usage.prompt ?? 0) + (usage.completion ?? 0);
}
