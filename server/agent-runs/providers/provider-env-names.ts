/** The operator's environment variable holding each provider's key (docs/configuration.md). */
export const PROVIDER_KEY_ENV: Record<string, string> = {
  openai: "OPENAI_API_KEY",
  anthropic: "ANTHROPIC_API_KEY",
  gemini: "GOOGLE_GENERATIVE_AI_API_KEY",
  mistral: "MISTRAL_API_KEY",
  groq: "GROQ_API_KEY",
  minimax: "MINIMAX_API_KEY",
  together_ai: "TOGETHER_AI_API_KEY",
  openrouter: "OPENROUTER_API_KEY",
};
