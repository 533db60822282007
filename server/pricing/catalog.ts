import { calcPrice, findProvider, type ModelPrice } from "@pydantic/genai-prices";
import type { PriceSheet, TieredPrice } from "./price-sheet";
import type { TokenKind } from "./usage";

/** Where a catalog price came from: the catalog's provider and model ids. */
export interface CatalogEntry {
  provider: string;
  model: string;
  sheet: PriceSheet;
}

/**
 * Provider names as the AI SDK (`ai.model.provider`), the OpenTelemetry GenAI conventions
 * (`gen_ai.provider.name`) and our connections spell them, for those the catalog's own matching
 * does not know.
 */
const PROVIDER_ALIASES: Record<string, string> = {
  gemini: "google",
  "gcp.gemini": "google",
  "gcp.vertex_ai": "google",
  "gcp.gen_ai": "google",
  "google-vertex": "google",
  vertex: "google",
  "aws.bedrock": "aws",
  "amazon-bedrock": "aws",
  bedrock: "aws",
  "azure.ai.openai": "azure",
  "azure.ai.inference": "azure",
  mistral_ai: "mistral",
  together_ai: "together",
  x_ai: "x-ai",
  xai: "x-ai",
};

/** The catalog's price keys (per million tokens) behind each usage kind; the first present wins. */
const PRICE_KEYS: Record<TokenKind, string[]> = {
  prompt: ["input_mtok"],
  completion: ["output_mtok"],
  cache_read: ["cache_read_mtok"],
  cache_write: ["cache_write_5m_mtok", "cache_write_mtok"],
  cache_write_1h: ["cache_write_1h_mtok"],
  reasoning: ["output_reasoning_mtok", "output_text_reasoning_mtok"],
};

/**
 * The catalog's price for `model` on `provider` at time `at` (prices can change on a date), or
 * undefined when the catalog does not list it. A provider the catalog does not know prices
 * nothing: the same model name behind another provider is not assumed to cost the same. With
 * no provider, the catalog matches the model name alone.
 */
export function catalogPrice(provider: string | undefined, model: string, at: Date): CatalogEntry | undefined {
  let providerId: string | undefined;
  if (provider !== undefined) {
    const key = provider.toLowerCase();
    providerId = findProvider({ providerId: PROVIDER_ALIASES[key] ?? key })?.id;
    if (!providerId) return undefined;
  }
  const found = calcPrice({ input_tokens: 0 }, model, { providerId, timestamp: at });
  if (!found) return undefined;
  return { provider: found.provider.id, model: found.model.id, sheet: sheetOf(found.model_price) };
}

function sheetOf(price: ModelPrice): PriceSheet {
  const sheet: PriceSheet = {};
  for (const [kind, keys] of Object.entries(PRICE_KEYS) as Array<[TokenKind, string[]]>) {
    const value = keys.map((key) => price[key]).find((v) => v !== undefined);
    if (typeof value === "number") sheet[kind] = value;
    else if (value !== undefined) sheet[kind] = tiered(value);
  }
  return sheet;
}

function tiered(value: { base: number; tiers: Array<{ start: number; price: number }> }): TieredPrice {
  return { base: value.base, tiers: [...value.tiers].sort((a, b) => a.start - b.start) };
}
