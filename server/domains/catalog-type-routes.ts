import { z } from "zod";
import { catalogTypeWire, getCatalogType, listCatalogTypes } from "@/server/agent-template";
import { NotFoundError } from "@/server/core/errors";
import { many, manySchema, one, oneSchema } from "@/server/http/envelope";
import { defineRoute, type AnyRoute } from "@/server/http/route";

/**
 * `GET /api/<domain>/catalog/types[/{key}]`: the catalog types (agent-template, messages,
 * prompt-template, model). The compat API serves them under workflows, applications and evaluators
 * alike, so the same catalog is mounted under each.
 */
export function catalogTypeRoutes(domain: "workflows" | "applications" | "evaluators"): AnyRoute[] {
  return [
    defineRoute({
      method: "GET",
      path: `/api/${domain}/catalog/types`,
      auth: "api_key",
      tag: "catalog",
      summary: "List the catalog types (agent-template, messages, prompt-template, model) with their JSON Schemas",
      response: manySchema("types", catalogTypeWire),
      handler: async () => many("types", listCatalogTypes()),
    }),
    defineRoute({
      method: "GET",
      path: `/api/${domain}/catalog/types/{key}`,
      auth: "api_key",
      tag: "catalog",
      summary: "A catalog type's live JSON Schema (2020-12): agent-template, messages, prompt-template or model",
      params: z.object({ key: z.string() }),
      response: oneSchema("type", catalogTypeWire),
      errors: ["not_found"],
      handler: async ({ params }) => {
        const type = getCatalogType(params.key);
        if (!type)
          throw new NotFoundError(
            `Unknown catalog type "${params.key}"; known: ${listCatalogTypes()
              .map((t) => t.key)
              .join(", ")}`,
          );
        return one("type", type);
      },
    }),
  ];
}
