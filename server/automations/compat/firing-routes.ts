import { z } from "zod";
import type { AppContext } from "@/server/core/app-context";
import { BadRequestError, NotFoundError } from "@/server/core/errors";
import { many, manySchema, one, oneSchema } from "@/server/http/envelope";
import { defineRoute } from "@/server/http/route";
import type { AutomationKind } from "../automation-input";
import { getAutomation } from "../automation-store";
import { getFiring, queryFirings } from "../firing-store";
import { compatFiringWire, firingToCompat } from "./wire";

const tag = "triggers";
const idParams = z.object({ id: z.string().uuid() });

const deliveryQuery = z
  .object({
    delivery: z
      .object({
        status: z.object({ code: z.number().int() }).nullish(),
        schedule_id: z.string().uuid().nullish(),
        subscription_id: z.string().uuid().nullish(),
        automation_id: z.string().uuid().nullish(),
        event_id: z.string().nullish(),
      })
      .nullish(),
  })
  .passthrough();

const STATUS_OF_CODE: Record<number, "started" | "skipped" | "failed" | undefined> = {
  202: "started",
  409: "skipped",
  400: "failed",
};

async function queryCompatFirings(app: AppContext, projectId: string, query: z.infer<typeof deliveryQuery>) {
  const filter = query.delivery ?? {};
  const named = {
    automation_id: filter.automation_id,
    schedule_id: filter.schedule_id,
    subscription_id: filter.subscription_id,
  };
  const automationId = filter.automation_id ?? filter.schedule_id ?? filter.subscription_id ?? undefined;
  const code = filter.status?.code;
  if (code !== undefined && code !== 102 && !STATUS_OF_CODE[code])
    throw new BadRequestError(`delivery.status.code ${code} is none of 102, 202, 400, 409`, "unknown_status_code");
  const { items: rows } = await queryFirings(
    app.db,
    projectId,
    {
      automationId,
      eventKey: filter.event_id ?? undefined,
      status: code === undefined ? undefined : STATUS_OF_CODE[code],
    },
    { limit: 1000 },
  );
  const matching = code === 102 ? rows.filter((r) => r.status === "pending" || r.status === "queued") : rows;
  const kinds = await kindsOf(
    app,
    projectId,
    matching.map((r) => r.automationId),
  );
  // A schedule's id asked for as a subscription_id (or the reverse) matches nothing: a delivery
  // names its automation by the field whose route serves it.
  const deliveries = matching
    .map((row) => firingToCompat(row, kinds.get(row.automationId)!))
    .filter((d) => Object.entries(named).every(([field, id]) => !id || d[field as keyof typeof named] === id));
  return many("deliveries", deliveries);
}

async function kindsOf(app: AppContext, projectId: string, ids: string[]) {
  const kinds = new Map<string, AutomationKind>();
  for (const id of new Set(ids)) kinds.set(id, (await getAutomation(app.db, projectId, id)).kind);
  return kinds;
}

/** The reference implementation's `/api/triggers/deliveries`: list, query and fetch, over the same firings. */
export const firingCompatRoutes = [
  defineRoute({
    method: "GET",
    path: "/api/triggers/deliveries",
    auth: "api_key",
    tag,
    summary: "Deliveries of schedules and subscriptions, newest first",
    response: manySchema("deliveries", compatFiringWire),
    errors: ["automation_not_found", "unknown_status_code"],
    handler: async ({ ctx }) => queryCompatFirings(ctx.app, ctx.principal.projectId, {}),
  }),
  defineRoute({
    method: "POST",
    path: "/api/triggers/deliveries/query",
    auth: "api_key",
    role: "viewer",
    tag,
    summary: "Query deliveries by status code, schedule, subscription, automation or event id",
    body: deliveryQuery,
    response: manySchema("deliveries", compatFiringWire),
    errors: ["automation_not_found", "unknown_status_code"],
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
      const kind = (await getAutomation(ctx.app.db, ctx.principal.projectId, row.automationId)).kind;
      return one("delivery", firingToCompat(row, kind));
    },
  }),
];
