import { z } from "zod";
import type { TokenKind } from "./usage";

const perMillion = z
  .number()
  .finite()
  .min(0, "a price cannot be negative")
  .max(1_000_000, "a price above $1,000,000 per million tokens is surely a typo");

/** Each kind's USD per million tokens; prompt and completion are required, the other kinds fall back (see README). */
export const priceSheetInput = z.strictObject({
  prompt: perMillion,
  completion: perMillion,
  cache_read: perMillion.optional(),
  cache_write: perMillion.optional(),
  cache_write_1h: perMillion.optional(),
  reasoning: perMillion.optional(),
}) satisfies z.ZodType<Partial<Record<TokenKind, number>>>;

export const priceOverrideInput = z.strictObject({
  provider: z.string().trim().min(1, "name the provider as runs and spans do: openai, anthropic, custom, ...").max(100),
  model: z.string().trim().min(1, "name the model").max(300),
  usd_per_million_tokens: priceSheetInput,
});

export type PriceOverrideInput = z.infer<typeof priceOverrideInput>;

export const priceOverrideWire = z.object({
  id: z.string(),
  provider: z.string(),
  model: z.string(),
  usd_per_million_tokens: priceSheetInput,
  updated_at: z.string(),
  updated_by_id: z.string().optional(),
});

export type PriceOverrideWire = z.infer<typeof priceOverrideWire>;
