import { z } from "zod";
import { windowingQuerySchema } from "@/server/core/windowing";
import { many, manySchema, one, oneSchema, pageBody, pageSchema } from "@/server/http/envelope";
import { defineRoute } from "@/server/http/route";
import { monitorInputSchema, muteInputSchema } from "./monitor-input";
import { createMonitor, deleteMonitor, getMonitor, listMonitors, muteMonitor, replaceMonitor } from "./monitor-store";
import { listAlerts } from "./alert-history";
import { listNotifications, NOTIFICATION_STATUSES } from "./notification-store";
import { alertToWire, alertWire, monitorToWire, monitorWire, notificationToWire, notificationWire } from "./wire";

const tag = "monitors";
const idParams = z.object({ id: z.string().uuid() });
const oneMonitor = oneSchema("monitor", monitorWire);
const body = z.object({ monitor: monitorInputSchema });

export const monitorRoutes = [
  defineRoute({
    method: "POST",
    path: "/api/monitors/",
    auth: "api_key",
    tag,
    summary: "Create a monitor: a metric for a scope over a rolling window against a threshold, with channels",
    body,
    response: oneMonitor,
    errors: ["bad_request", "budget_not_found", "invalid_channel_url", "invalid_monitor"],
    handler: async ({ ctx, body }) =>
      one("monitor", monitorToWire(await createMonitor(ctx.app, ctx.principal, body.monitor), ctx.app.now())),
  }),
  defineRoute({
    method: "GET",
    path: "/api/monitors/",
    auth: "api_key",
    tag,
    summary: "List the project's monitors with their state",
    response: manySchema("monitors", monitorWire),
    handler: async ({ ctx }) =>
      many(
        "monitors",
        (await listMonitors(ctx.app, ctx.principal.projectId)).map((m) => monitorToWire(m, ctx.app.now())),
      ),
  }),
  defineRoute({
    method: "GET",
    path: "/api/monitors/{id}",
    auth: "api_key",
    tag,
    summary: "Fetch a monitor",
    params: idParams,
    response: oneMonitor,
    errors: ["monitor_not_found"],
    handler: async ({ ctx, params }) =>
      one("monitor", monitorToWire(await getMonitor(ctx.app, ctx.principal.projectId, params.id), ctx.app.now())),
  }),
  defineRoute({
    method: "PUT",
    path: "/api/monitors/{id}",
    auth: "api_key",
    tag,
    summary: "Replace a monitor (its state and history stay; without channels the stored ones stay)",
    params: idParams,
    body,
    response: oneMonitor,
    errors: ["bad_request", "budget_not_found", "monitor_not_found"],
    handler: async ({ ctx, params, body }) =>
      one(
        "monitor",
        monitorToWire(await replaceMonitor(ctx.app, ctx.principal.projectId, params.id, body.monitor), ctx.app.now()),
      ),
  }),
  defineRoute({
    method: "DELETE",
    path: "/api/monitors/{id}",
    auth: "api_key",
    tag,
    summary: "Delete a monitor and its history",
    params: idParams,
    status: 204,
    noJsonBody: { description: "Deleted; no body" },
    errors: ["monitor_not_found"],
    handler: async ({ ctx, params }) => {
      await deleteMonitor(ctx.app, ctx.principal.projectId, params.id);
      return undefined;
    },
  }),
  defineRoute({
    method: "POST",
    path: "/api/monitors/{id}/mute",
    auth: "api_key",
    tag,
    summary: "Mute a monitor until a time (null unmutes): it is evaluated and recorded, nothing is notified",
    params: idParams,
    body: muteInputSchema,
    response: oneMonitor,
    errors: ["bad_request", "invalid_monitor", "monitor_not_found"],
    handler: async ({ ctx, params, body }) =>
      one(
        "monitor",
        monitorToWire(
          await muteMonitor(ctx.app, ctx.principal.projectId, params.id, body.until ? new Date(body.until) : null),
          ctx.app.now(),
        ),
      ),
  }),
  defineRoute({
    method: "GET",
    path: "/api/monitors/{id}/alerts",
    auth: "api_key",
    tag,
    summary:
      "A monitor's alert history (fired, renotified, resolved), newest first, 100 a page (`?limit=`, `?next=` the previous page's `windowing.next`)",
    params: idParams,
    query: windowingQuerySchema,
    response: pageSchema("alerts", alertWire),
    errors: ["monitor_not_found"],
    handler: async ({ ctx, params, query }) =>
      pageBody("alerts", await listAlerts(ctx.app, ctx.principal.projectId, params.id, query), alertToWire),
  }),
  defineRoute({
    method: "GET",
    path: "/api/monitors/{id}/notifications",
    auth: "api_key",
    tag,
    summary:
      "A monitor's channel messages (Slack, Teams, GitHub) and their delivery: status, attempts, last answer and error; newest first, 100 a page (`?status=failed`, `?limit=`, `?next=`)",
    params: idParams,
    query: windowingQuerySchema.extend({ status: z.enum(NOTIFICATION_STATUSES).optional() }),
    response: pageSchema("notifications", notificationWire),
    errors: ["monitor_not_found"],
    handler: async ({ ctx, params, query: { status, ...windowing } }) =>
      pageBody(
        "notifications",
        await listNotifications(ctx.app, ctx.principal.projectId, params.id, windowing, status),
        notificationToWire,
      ),
  }),
];
