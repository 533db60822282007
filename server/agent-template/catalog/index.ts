export { agentTemplateJsonSchema } from "./agent-template-json-schema";
export {
  CATALOG_TYPE_KEYS,
  catalogTypeUrl,
  catalogTypeWire,
  getCatalogType,
  listCatalogTypes,
  type CatalogType,
  type CatalogTypeKey,
} from "./catalog-types";
export {
  getHarness,
  harnessInfoWire,
  harnessSlug,
  listHarnesses,
  type HarnessDeployment,
  type HarnessInfo,
  type HarnessProvider,
  type ModelSelection,
} from "./harnesses";
export type { JsonSchema } from "./json-schema";
export { MESSAGE_ROLES, messagesCatalogType } from "./messages-type";
export { modelCatalogType } from "./model-type";
export { PROMPT_ROLES, promptTemplateCatalogType, promptTemplateSchema } from "./prompt-template-type";
export { CURATED_MODELS, getModel, type ModelInfo } from "./models";
export { DEPLOYMENTS, PROVIDER_IDS, PROVIDERS, type Deployment, type ProviderId } from "@/shared/providers";
export { toCatalogJsonSchema } from "./to-catalog-json-schema";
