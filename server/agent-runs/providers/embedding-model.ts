import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { createMistral } from "@ai-sdk/mistral";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { createTogetherAI } from "@ai-sdk/togetherai";
import type { EmbeddingModel } from "ai";
import type { ResolvedConnection } from "./connection";

/** Providers whose packages embed text; the others (Anthropic, Groq, ...) offer no embeddings. */
export const EMBEDDING_PROVIDERS = ["openai", "gemini", "mistral", "together_ai", "custom"] as const;

/** The AI SDK v6 embedding model for a connection, or undefined when its provider has none. */
export function embeddingModel(connection: ResolvedConnection): EmbeddingModel | undefined {
  const { apiKey, baseUrl: baseURL, model, fetch } = connection;
  switch (connection.provider) {
    case "openai":
      return createOpenAI({ apiKey, baseURL, fetch }).embeddingModel(model);
    case "gemini":
      return createGoogleGenerativeAI({ apiKey, baseURL, fetch }).embeddingModel(model);
    case "mistral":
      return createMistral({ apiKey, baseURL, fetch }).embeddingModel(model);
    case "together_ai":
      return createTogetherAI({ apiKey, baseURL, fetch }).embeddingModel(model);
    case "custom":
      return createOpenAICompatible({
        name: connection.customName ?? "custom",
        apiKey,
        baseURL: baseURL!,
        fetch,
      }).embeddingModel(model);
    default:
      return undefined;
  }
}
