/**
 * How a provider's API is reached. `custom` is a compatible endpoint at a base URL the
 * connection stores; `bedrock` and `vertex` are the cloud-hosted Anthropic variants.
 */
export const DEPLOYMENTS = {
  direct: "The provider's own API",
  custom: "A compatible endpoint at a custom base URL",
  bedrock: "Amazon Bedrock",
  vertex: "Google Cloud Vertex AI",
} as const;

export type Deployment = keyof typeof DEPLOYMENTS;

/** Hosted providers the core and service harnesses reach. */
export const PROVIDERS = {
  openai: "OpenAI",
  anthropic: "Anthropic",
  gemini: "Google Gemini",
  mistral: "Mistral AI",
  groq: "Groq",
  minimax: "MiniMax",
  together_ai: "Together AI",
  openrouter: "OpenRouter",
} as const;

export type ProviderId = keyof typeof PROVIDERS;

export const PROVIDER_IDS = Object.keys(PROVIDERS) as ProviderId[];
