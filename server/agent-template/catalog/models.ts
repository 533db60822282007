import { catalogPrice, type PriceSheet } from "@/server/pricing";
import type { ProviderId } from "@/shared/providers";

/**
 * One entry of the model picker. Prices are the price catalog's list prices (server/pricing) in
 * USD per million tokens, the base price when it is tiered; absent when the catalog does not list
 * the model (then its runs have no price unless the project sets one).
 */
export interface ModelInfo {
  id: string;
  display_name: string;
  context_window: number;
  input_usd_per_mtok?: number;
  output_usd_per_mtok?: number;
}

const base = (price: PriceSheet["prompt"]) => (typeof price === "object" ? price.base : price);

/** A picker entry; its prices are looked up when a process loads the catalog. */
function entry(provider: ProviderId, id: string, display_name: string, context_window: number): ModelInfo {
  const sheet = catalogPrice(provider, id, new Date())?.sheet;
  const input = base(sheet?.prompt);
  const output = base(sheet?.completion);
  return {
    id,
    display_name,
    context_window,
    ...(input !== undefined ? { input_usd_per_mtok: input } : {}),
    ...(output !== undefined ? { output_usd_per_mtok: output } : {}),
  };
}

const curated =
  (id: ProviderId) =>
  (...models: Array<[string, string, number]>): ModelInfo[] =>
    models.map(([model, name, window]) => entry(id, model, name, window));

/**
 * A short curated list per provider for the picker. Ids are in the provider's own namespace (so
 * openrouter, groq and together ids contain "/"). Any other id the provider accepts still works;
 * what a run costs comes from server/pricing, for any model the catalog lists.
 */
export const CURATED_MODELS: Record<ProviderId, ModelInfo[]> = {
  openai: curated("openai")(
    ["gpt-5", "GPT-5", 400_000],
    ["gpt-5-mini", "GPT-5 mini", 400_000],
    ["gpt-5-nano", "GPT-5 nano", 400_000],
    ["gpt-4.1", "GPT-4.1", 1_047_576],
  ),
  anthropic: curated("anthropic")(
    ["claude-opus-4-5", "Claude Opus 4.5", 200_000],
    ["claude-sonnet-4-5", "Claude Sonnet 4.5", 200_000],
    ["claude-haiku-4-5", "Claude Haiku 4.5", 200_000],
  ),
  gemini: curated("gemini")(
    ["gemini-2.5-pro", "Gemini 2.5 Pro", 1_048_576],
    ["gemini-2.5-flash", "Gemini 2.5 Flash", 1_048_576],
    ["gemini-2.5-flash-lite", "Gemini 2.5 Flash-Lite", 1_048_576],
  ),
  mistral: curated("mistral")(
    ["mistral-medium-latest", "Mistral Medium", 131_072],
    ["mistral-small-latest", "Mistral Small", 131_072],
    ["codestral-latest", "Codestral", 262_144],
  ),
  groq: curated("groq")(
    ["openai/gpt-oss-120b", "GPT-OSS 120B", 131_072],
    ["openai/gpt-oss-20b", "GPT-OSS 20B", 131_072],
    ["llama-3.3-70b-versatile", "Llama 3.3 70B", 131_072],
  ),
  minimax: curated("minimax")(
    ["MiniMax-M2", "MiniMax M2", 204_800],
    ["MiniMax-M1", "MiniMax M1", 1_000_000],
    ["MiniMax-Text-01", "MiniMax Text 01", 1_000_192],
  ),
  together_ai: curated("together_ai")(
    ["meta-llama/Llama-3.3-70B-Instruct-Turbo", "Llama 3.3 70B Turbo", 131_072],
    ["deepseek-ai/DeepSeek-V3", "DeepSeek V3", 131_072],
    ["Qwen/Qwen3-235B-A22B-Instruct-2507-tput", "Qwen3 235B Instruct", 262_144],
    ["openai/gpt-oss-120b", "GPT-OSS 120B", 131_072],
  ),
  openrouter: curated("openrouter")(
    ["anthropic/claude-sonnet-4.5", "Claude Sonnet 4.5", 1_000_000],
    ["openai/gpt-5", "GPT-5", 400_000],
    ["google/gemini-2.5-pro", "Gemini 2.5 Pro", 1_048_576],
  ),
};

export function getModel(provider: string, modelId: string): ModelInfo | undefined {
  if (!Object.hasOwn(CURATED_MODELS, provider)) return undefined;
  return CURATED_MODELS[provider as ProviderId].find((entry) => entry.id === modelId);
}
