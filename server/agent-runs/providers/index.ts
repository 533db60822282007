export type { ResolvedConnection } from "./connection";
export { languageModel, type ProviderModel } from "./language-model";
export {
  fallbackModel,
  type AnsweredCall,
  type EntryTry,
  type FallbackAttempt,
  type FallbackRoute,
} from "./fallback-model";
export { PROVIDER_KEY_ENV } from "./provider-env-names";
export { resolveConnection, type ResolutionContext } from "./resolve-connection";
export { resolveModelName } from "./resolve-model-name";
export { testStoredConnection, type ConnectionTest } from "./test-connection";
export { connectedProviders, type ProviderConnection } from "./connected-providers";
export { guardedFetchFor } from "./guarded-fetch-for";
export { embeddingModel, EMBEDDING_PROVIDERS } from "./embedding-model";
export { runnableModels, startingModel, type CustomProviderModels, type RunnableModels } from "./runnable-models";
export { systemPromptParts } from "./system-messages";
