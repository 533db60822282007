import { z } from "zod";
import { many, manySchema, one, oneSchema } from "@/server/http/envelope";
import { defineRoute } from "@/server/http/route";
import { dashboardInputSchema } from "./dashboard-input";
import { createDashboard, deleteDashboard, getDashboard, listDashboards, replaceDashboard } from "./dashboard-store";
import { dashboardToWire, dashboardWire } from "./wire";

const tag = "analytics";
const idParams = z.object({ id: z.string().uuid() });
const oneDashboard = oneSchema("dashboard", dashboardWire);
const body = z.strictObject({ dashboard: dashboardInputSchema });

export const dashboardRoutes = [
  defineRoute({
    method: "POST",
    path: "/api/analytics/dashboards/",
    auth: "api_key",
    tag,
    summary:
      "Save a dashboard: a name and charts, each a metric over a range, grouped and filtered as the analytics query",
    body,
    response: oneDashboard,
    errors: ["bad_timezone", "invalid_filtering"],
    handler: async ({ ctx, body }) =>
      one(
        "dashboard",
        dashboardToWire(await createDashboard(ctx.app.db, ctx.principal, body.dashboard, ctx.app.now())),
      ),
  }),
  defineRoute({
    method: "GET",
    path: "/api/analytics/dashboards/",
    auth: "api_key",
    role: "viewer",
    tag,
    summary: "The project's saved dashboards, newest first",
    response: manySchema("dashboards", dashboardWire),
    handler: async ({ ctx }) =>
      many("dashboards", (await listDashboards(ctx.app.db, ctx.principal.projectId)).map(dashboardToWire)),
  }),
  defineRoute({
    method: "GET",
    path: "/api/analytics/dashboards/{id}",
    auth: "api_key",
    role: "viewer",
    tag,
    summary: "Fetch a saved dashboard",
    params: idParams,
    response: oneDashboard,
    errors: ["dashboard_not_found"],
    handler: async ({ ctx, params }) =>
      one("dashboard", dashboardToWire(await getDashboard(ctx.app.db, ctx.principal.projectId, params.id))),
  }),
  defineRoute({
    method: "PUT",
    path: "/api/analytics/dashboards/{id}",
    auth: "api_key",
    tag,
    summary: "Replace a saved dashboard's name and charts",
    params: idParams,
    body,
    response: oneDashboard,
    errors: ["dashboard_not_found", "invalid_filtering"],
    handler: async ({ ctx, params, body }) =>
      one(
        "dashboard",
        dashboardToWire(
          await replaceDashboard(ctx.app.db, ctx.principal.projectId, params.id, body.dashboard, ctx.app.now()),
        ),
      ),
  }),
  defineRoute({
    method: "DELETE",
    path: "/api/analytics/dashboards/{id}",
    auth: "api_key",
    tag,
    summary: "Delete a saved dashboard",
    params: idParams,
    status: 204,
    noJsonBody: { description: "Deleted; no body" },
    errors: ["dashboard_not_found"],
    handler: async ({ ctx, params }) => deleteDashboard(ctx.app.db, ctx.principal.projectId, params.id),
  }),
];
