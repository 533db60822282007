import type { TokenUsage } from "./usage";

/** Anthropic's Messages API `usage` object (the fields this reads). */
export interface AnthropicUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_creation?: { ephemeral_5m_input_tokens?: number | null; ephemeral_1h_input_tokens?: number | null } | null;
}

/**
 * Anthropic's raw usage by kind. Its `input_tokens` leaves out cache reads and writes, so the
 * whole prompt is the sum; writes are split by TTL when the API says (`cache_creation`).
 */
export function usageFromAnthropic(usage: AnthropicUsage | undefined): TokenUsage {
  const input = usage?.input_tokens ?? 0;
  const read = usage?.cache_read_input_tokens ?? 0;
  const writes = usage?.cache_creation_input_tokens ?? 0;
  const oneHour = Math.min(usage?.cache_creation?.ephemeral_1h_input_tokens ?? 0, writes);
  const out: TokenUsage = { prompt: input + read + writes, completion: usage?.output_tokens ?? 0 };
  if (read) out.cache_read = read;
  if (writes > oneHour) out.cache_write = writes - oneHour;
  if (oneHour) out.cache_write_1h = oneHour;
  return out;
}
