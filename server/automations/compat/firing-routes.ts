import { z } from "zod";
import { NotFoundError } from "@/server/core/errors";
import { one, oneSchema, pageSchema } from "@/server/http/envelope";
import { defineRoute } from "@/server/http/route";
import { getAutomation } from "../automation-store";
import { getFiring } from "../firing-store";
import { deliveryQuery, queryCompatFirings } from "./delivery-query";
import { compatFiringWire, firingToCompat } from "./wire";

const tag = "triggers";
const idParams = z.object({ id: z.string().uuid() });

/** The reference implementation's `/api/triggers/deliveries`: list, query and fetch, over the same firings. */
export const firingCompatRoutes = [
  defineRoute({
    method: "GET",
    path: "/api/triggers/deliveries",
    auth: "api_key",
    tag,
    summary: "Deliveries of schedules and subscriptions, newest first",
    response: pageSchema("deliveries", compatFiringWire),
    errors: ["automation_not_found", "too_many_results"],
    handler: async ({ ctx }) => queryCompatFirings(ctx.app, ctx.principal.projectId, {}),
  }),
  defineRoute({
    method: "POST",
    path: "/api/triggers/deliveries/query",
    auth: "api_key",
    role: "viewer",
    tag,
    summary:
      "Query deliveries by status code, schedule, subscription, automation or event id; newest first, a page only when windowing is sent",
    body: deliveryQuery,
    response: pageSchema("deliveries", compatFiringWire),
    errors: ["automation_not_found", "too_many_results", "unknown_status_code"],
    handler: async ({ ctx, body }) => queryCompatFirings(ctx.app, ctx.principal.projectId, body),
  }),
  defineRoute({
    method: "GET",
    path: "/api/triggers/deliveries/{id}",
    auth: "api_key",
    tag,
    summary: "Fetch one delivery",
    params: idParams,
    response: oneSchema("delivery", compatFiringWire),
    errors: ["automation_not_found", "automation_delivery_not_found"],
    handler: async ({ ctx, params }) => {
      let row;
      try {
        row = await getFiring(ctx.app.db, ctx.principal.projectId, params.id);
      } catch (error) {
        if (error instanceof NotFoundError)
          throw new NotFoundError("Trigger delivery not found", "automation_delivery_not_found");
        throw error;
      }
      return one(
        "delivery",
        firingToCompat(row, await getAutomation(ctx.app.db, ctx.principal.projectId, row.automationId)),
      );
    },
  }),
];
