import { z } from "zod";
import type { JsonSchema } from "./json-schema";

/**
 * `prefault({})` objects default to their own defaults; zod writes that as `"default": {}`.
 * The catalog shows the expanded value instead, so a form can render every default field.
 */
function expandObjectDefaults(ctx: { zodSchema: z.core.$ZodType; jsonSchema: z.core.JSONSchema.BaseSchema }) {
  if (ctx.zodSchema._zod.def.type !== "prefault") return;
  const parsed = z.safeParse(ctx.zodSchema, undefined);
  if (parsed.success) ctx.jsonSchema.default = parsed.data;
}

/**
 * Catalog JSON Schema (draft 2020-12) of a zod schema, input side: fields with defaults are
 * optional. Cross-field rules travel as `.meta()` fragments (if/then/else, not) beside the
 * refinements they mirror, so the two validators give the same verdict.
 */
export function toCatalogJsonSchema(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, { target: "draft-2020-12", io: "input", override: expandObjectDefaults }) as JsonSchema;
}
