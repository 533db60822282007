import { z } from "zod";
import { many, manySchema, one, oneSchema } from "@/server/http/envelope";
import { defineRoute } from "@/server/http/route";
import { deletePriceOverride, listPriceOverrides, setPriceOverride } from "./price-store";
import { priceOverrideInput, priceOverrideWire } from "./wire";

const onePrice = oneSchema("price", priceOverrideWire);

/** `/api/pricing/prices`: the project's own prices per model, which win over the catalog from when they are set. */
export const pricingRoutes = [
  defineRoute({
    method: "GET",
    path: "/api/pricing/prices",
    auth: "api_key",
    tag: "pricing",
    response: manySchema("prices", priceOverrideWire),
    summary: "The project's own model prices (USD per million tokens per usage kind)",
    handler: async ({ ctx }) => many("prices", await listPriceOverrides(ctx.app.db, ctx.principal.projectId)),
  }),
  defineRoute({
    method: "PUT",
    path: "/api/pricing/prices",
    auth: "api_key",
    tag: "pricing",
    response: onePrice,
    summary:
      "Set the project's price for a provider and model (mutating; replaces the one set before). It wins over the catalog for what is costed from now on; spans and runs already costed keep their price",
    body: priceOverrideInput,
    handler: async ({ ctx, body }) =>
      one(
        "price",
        await setPriceOverride(ctx.app.db, { projectId: ctx.principal.projectId, userId: ctx.principal.userId }, body),
      ),
  }),
  defineRoute({
    method: "DELETE",
    path: "/api/pricing/prices/{id}",
    auth: "api_key",
    tag: "pricing",
    response: onePrice,
    summary: "Remove the project's price for a model (mutating): the catalog's list price applies again from now on",
    params: z.object({ id: z.string().uuid() }),
    errors: ["price_not_found"],
    handler: async ({ ctx, params }) =>
      one("price", await deletePriceOverride(ctx.app.db, ctx.principal.projectId, params.id)),
  }),
];
