import type { ProviderId } from "@/shared/providers";

/** One entry of the model picker; prices are list prices in USD per million tokens. */
export interface ModelInfo {
  id: string;
  display_name: string;
  context_window: number;
  input_usd_per_mtok: number;
  output_usd_per_mtok: number;
}

const model = (id: string, display_name: string, context_window: number, input: number, output: number): ModelInfo => ({
  id,
  display_name,
  context_window,
  input_usd_per_mtok: input,
  output_usd_per_mtok: output,
});

/**
 * A short curated list per provider for the picker and for cost accounting. Ids are in the
 * provider's own namespace (so openrouter, groq and together ids contain "/"). Any other id the
 * provider accepts still works; it just has no price here.
 */
export const CURATED_MODELS: Record<ProviderId, ModelInfo[]> = {
  openai: [
    model("gpt-5", "GPT-5", 400_000, 1.25, 10),
    model("gpt-5-mini", "GPT-5 mini", 400_000, 0.25, 2),
    model("gpt-5-nano", "GPT-5 nano", 400_000, 0.05, 0.4),
    model("gpt-4.1", "GPT-4.1", 1_047_576, 2, 8),
  ],
  anthropic: [
    model("claude-opus-4-5", "Claude Opus 4.5", 200_000, 5, 25),
    model("claude-sonnet-4-5", "Claude Sonnet 4.5", 200_000, 3, 15),
    model("claude-haiku-4-5", "Claude Haiku 4.5", 200_000, 1, 5),
  ],
  gemini: [
    model("gemini-2.5-pro", "Gemini 2.5 Pro", 1_048_576, 1.25, 10),
    model("gemini-2.5-flash", "Gemini 2.5 Flash", 1_048_576, 0.3, 2.5),
    model("gemini-2.5-flash-lite", "Gemini 2.5 Flash-Lite", 1_048_576, 0.1, 0.4),
  ],
  mistral: [
    model("mistral-medium-latest", "Mistral Medium", 131_072, 0.4, 2),
    model("mistral-small-latest", "Mistral Small", 131_072, 0.1, 0.3),
    model("codestral-latest", "Codestral", 262_144, 0.3, 0.9),
  ],
  groq: [
    model("openai/gpt-oss-120b", "GPT-OSS 120B", 131_072, 0.15, 0.75),
    model("openai/gpt-oss-20b", "GPT-OSS 20B", 131_072, 0.1, 0.5),
    model("llama-3.3-70b-versatile", "Llama 3.3 70B", 131_072, 0.59, 0.79),
  ],
  minimax: [
    model("MiniMax-M2", "MiniMax M2", 204_800, 0.3, 1.2),
    model("MiniMax-M1", "MiniMax M1", 1_000_000, 0.4, 2.2),
    model("MiniMax-Text-01", "MiniMax Text 01", 1_000_192, 0.2, 1.1),
  ],
  together_ai: [
    model("meta-llama/Llama-3.3-70B-Instruct-Turbo", "Llama 3.3 70B Turbo", 131_072, 0.88, 0.88),
    model("deepseek-ai/DeepSeek-V3", "DeepSeek V3", 131_072, 1.25, 1.25),
    model("Qwen/Qwen3-235B-A22B-Instruct-2507-tput", "Qwen3 235B Instruct", 262_144, 0.2, 0.6),
    model("openai/gpt-oss-120b", "GPT-OSS 120B", 131_072, 0.15, 0.6),
  ],
  openrouter: [
    model("anthropic/claude-sonnet-4.5", "Claude Sonnet 4.5", 1_000_000, 3, 15),
    model("openai/gpt-5", "GPT-5", 400_000, 1.25, 10),
    model("google/gemini-2.5-pro", "Gemini 2.5 Pro", 1_048_576, 1.25, 10),
  ],
};

export function getModel(provider: string, modelId: string): ModelInfo | undefined {
  if (!Object.hasOwn(CURATED_MODELS, provider)) return undefined;
  return CURATED_MODELS[provider as ProviderId].find((entry) => entry.id === modelId);
}

/** Cost of a turn at list price; undefined for a model without a curated price. */
export function estimateCostUsd(
  provider: string,
  modelId: string,
  tokens: { input: number; output: number },
): number | undefined {
  const info = getModel(provider, modelId);
  if (!info) return undefined;
  return (tokens.input * info.input_usd_per_mtok + tokens.output * info.output_usd_per_mtok) / 1_000_000;
}
