import { z } from "zod";
import { agentTemplateJsonSchema } from "./agent-template-json-schema";
import type { JsonSchema } from "./json-schema";
import { messagesCatalogType } from "./messages-type";
import { modelCatalogType } from "./model-type";
import { promptTemplateCatalogType } from "./prompt-template-type";

/** The schema of a served CatalogType (its JSON Schema left open: it is a document, not data). */
export const catalogTypeWire = z.strictObject({ key: z.string(), json_schema: z.record(z.string(), z.unknown()) });

/** Served at GET /api/workflows/catalog/types/{key}. */
export interface CatalogType {
  key: CatalogTypeKey;
  json_schema: JsonSchema;
}

const BUILDERS = {
  "agent-template": agentTemplateJsonSchema,
  messages: messagesCatalogType,
  "prompt-template": promptTemplateCatalogType,
  model: modelCatalogType,
} as const;

export type CatalogTypeKey = keyof typeof BUILDERS;

export const CATALOG_TYPE_KEYS = Object.keys(BUILDERS) as CatalogTypeKey[];

export function getCatalogType(key: string): CatalogType | undefined {
  if (!Object.hasOwn(BUILDERS, key)) return undefined;
  return build(key as CatalogTypeKey);
}

export function listCatalogTypes(): CatalogType[] {
  return CATALOG_TYPE_KEYS.map(build);
}

/**
 * The schema names its own type at the top level twice: `x-catalog-type`, which our clients read,
 * and `x-ag-type`, the reference implementation's marker, which its clients compare.
 */
function build(key: CatalogTypeKey): CatalogType {
  return { key, json_schema: { "x-catalog-type": key, "x-ag-type": key, ...BUILDERS[key]() } };
}

/** Where a schema points to fetch a catalog type (used as `x-catalog-url`). */
export function catalogTypeUrl(key: CatalogTypeKey): string {
  return `/api/workflows/catalog/types/${key}`;
}
