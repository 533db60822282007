import { z } from "zod";
import { NotFoundError } from "@/server/core/errors";
import { many, manySchema, one, oneSchema } from "@/server/http/envelope";
import { defineRoute } from "@/server/http/route";
import { findPlatformOperation, listPlatformTools } from "./platform-catalog";
import { operationToWire, operationWire } from "./platform-operation";

/** The workflow catalog's platform tools, served beside the catalog that defines them. */
export const platformToolRoutes = [
  defineRoute({
    method: "GET",
    path: "/api/workflows/catalog/tools",
    auth: "api_key",
    tag: "catalog",
    summary:
      "The operations of this service a `platform` tool entry can name (op), with description, endpoint, input schema and the arguments the run binds",
    response: manySchema("tools", operationWire),
    handler: async () => many("tools", listPlatformTools()),
  }),
  defineRoute({
    method: "GET",
    path: "/api/workflows/catalog/tools/{op}",
    auth: "api_key",
    tag: "catalog",
    summary: "One platform operation: description, endpoint, input schema and the arguments the run binds",
    params: z.object({ op: z.string() }),
    response: oneSchema("tool", operationWire),
    errors: ["not_found"],
    handler: async ({ params }) => {
      const operation = findPlatformOperation(params.op);
      if (!operation)
        throw new NotFoundError(
          `Unknown platform tool "${params.op}"; known: ${listPlatformTools()
            .map((t) => t.op)
            .join(", ")}`,
        );
      return one("tool", operationToWire(operation));
    },
  }),
];
