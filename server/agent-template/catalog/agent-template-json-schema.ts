import { agentTemplateSchema } from "../template";
import type { JsonSchema } from "./json-schema";
import { toCatalogJsonSchema } from "./to-catalog-json-schema";

let generated: JsonSchema | undefined;

/** Live JSON Schema of the agent template (catalog type `agent-template`); a fresh copy per call. */
export function agentTemplateJsonSchema(): JsonSchema {
  generated ??= toCatalogJsonSchema(agentTemplateSchema);
  return structuredClone(generated);
}
