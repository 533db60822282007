import type { TokenUsage } from "./usage";

/** The fields of the AI SDK v6 `LanguageModelUsage` this reads (older field names included). */
export interface AiSdkUsage {
  inputTokens?: number;
  outputTokens?: number;
  inputTokenDetails?: { cacheReadTokens?: number; cacheWriteTokens?: number };
  outputTokenDetails?: { reasoningTokens?: number };
  /** @deprecated in v6, still filled by some providers. */
  cachedInputTokens?: number;
  reasoningTokens?: number;
  /** The provider's own usage object (Anthropic's splits cache writes by TTL). */
  raw?: unknown;
}

/**
 * A model call's usage as the AI SDK reports it, by kind. Anthropic's cache writes are split into
 * 5-minute and 1-hour writes from its raw usage (`cache_creation.ephemeral_1h_input_tokens`, also
 * in `providerMetadata.anthropic.usage`), since they are priced differently.
 */
export function usageFromAiSdk(usage: AiSdkUsage | undefined, providerMetadata?: unknown): TokenUsage {
  if (!usage) return {};
  const out: TokenUsage = { prompt: usage.inputTokens ?? 0, completion: usage.outputTokens ?? 0 };
  const cacheRead = usage.inputTokenDetails?.cacheReadTokens ?? usage.cachedInputTokens;
  const anthropic = field(providerMetadata, "anthropic");
  const writes = usage.inputTokenDetails?.cacheWriteTokens ?? num(field(anthropic, "cacheCreationInputTokens"));
  const oneHour =
    num(field(field(usage.raw, "cache_creation"), "ephemeral_1h_input_tokens")) ??
    num(field(field(field(anthropic, "usage"), "cache_creation"), "ephemeral_1h_input_tokens")) ??
    0;
  const reasoning = usage.outputTokenDetails?.reasoningTokens ?? usage.reasoningTokens;
  if (cacheRead) out.cache_read = cacheRead;
  if (writes && writes > oneHour) out.cache_write = writes - oneHour;
  if (oneHour > 0) out.cache_write_1h = Math.min(oneHour, writes ?? oneHour);
  if (reasoning) out.reasoning = reasoning;
  return out;
}

function field(value: unknown, key: string): unknown {
  return value !== null && typeof value === "object" ? (value as Record<string, unknown>)[key] : undefined;
}

function num(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}
