import { createAnthropic } from "@ai-sdk/anthropic";
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { createGroq } from "@ai-sdk/groq";
import { createMistral } from "@ai-sdk/mistral";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { createTogetherAI } from "@ai-sdk/togetherai";
import { createOpenRouter } from "@openrouter/ai-sdk-provider";
import type { LanguageModel } from "ai";
import type { ResolvedConnection } from "./connection";
import { withInputRedaction } from "./redact-model-input";

/** MiniMax is reached through its OpenAI-compatible endpoint. */
const MINIMAX_BASE_URL = "https://api.minimax.io/v1";

export interface ProviderModel {
  model: LanguageModel;
  /** The key `providerOptions` are read under for this provider package. */
  optionsKey: string;
}

/**
 * The AI SDK v6 provider package for a connection; only the base URL differs between deployments.
 * With the project's `model_input` redaction, every prompt is redacted on its way to the provider.
 */
export function languageModel(connection: ResolvedConnection): ProviderModel {
  const picked = providerModel(connection);
  if (!connection.inputRedactor) return picked;
  return {
    ...picked,
    model: withInputRedaction(picked.model as Parameters<typeof withInputRedaction>[0], connection.inputRedactor),
  };
}

function providerModel(connection: ResolvedConnection): ProviderModel {
  const { apiKey, baseUrl: baseURL, model, fetch } = connection;
  switch (connection.provider) {
    case "openai": {
      // The Responses API for OpenAI itself; chat completions for a `custom` deployment, the
      // dialect every OpenAI-compatible server speaks.
      const openai = createOpenAI({ apiKey, baseURL, fetch });
      return {
        model: connection.deployment === "custom" ? openai.chat(model) : openai.responses(model),
        optionsKey: "openai",
      };
    }
    case "anthropic":
      return { model: createAnthropic({ apiKey, baseURL, fetch })(model), optionsKey: "anthropic" };
    case "gemini":
      return { model: createGoogleGenerativeAI({ apiKey, baseURL, fetch })(model), optionsKey: "google" };
    case "mistral":
      return { model: createMistral({ apiKey, baseURL, fetch })(model), optionsKey: "mistral" };
    case "groq":
      return { model: createGroq({ apiKey, baseURL, fetch })(model), optionsKey: "groq" };
    case "together_ai":
      return { model: createTogetherAI({ apiKey, baseURL, fetch })(model), optionsKey: "togetherai" };
    case "openrouter":
      return { model: createOpenRouter({ apiKey, baseURL, fetch })(model), optionsKey: "openrouter" };
    case "minimax":
      return {
        model: createOpenAICompatible({
          name: "minimax",
          apiKey,
          baseURL: baseURL ?? MINIMAX_BASE_URL,
          includeUsage: true,
          fetch,
        }).chatModel(model),
        optionsKey: "minimax",
      };
    case "custom":
      return {
        model: createOpenAICompatible({
          name: connection.customName ?? "custom",
          apiKey,
          baseURL: baseURL!,
          includeUsage: true,
          fetch,
        }).chatModel(model),
        optionsKey: connection.customName ?? "custom",
      };
    default:
      throw new Error(`No provider package for "${connection.provider}"`);
  }
}
