import { defineRoute } from "@/server/http/route";
import { queryAnalytics } from "./query-analytics";
import { compatRoutes } from "./compat/routes";
import { conversationRoutes } from "./conversations";
import { dashboardRoutes } from "./dashboards";
import { analyticsQuerySchema } from "./query-request";
import { analyticsResponseWire } from "./wire";

const TAG = "analytics";

export const analyticsRoutes = [
  defineRoute({
    method: "POST",
    path: "/api/analytics/query",
    auth: "api_key",
    role: "viewer",
    tag: TAG,
    summary: "Metrics of runs or spans over a window in minute, hour or day buckets, grouped and filtered",
    body: analyticsQuerySchema,
    response: analyticsResponseWire,
    errors: ["bad_timezone", "bad_window", "invalid_filtering", "too_many_buckets"],
    handler: async ({ ctx, body }) => queryAnalytics(ctx.app.db, ctx.principal.projectId, body, { now: ctx.app.now() }),
  }),
  ...compatRoutes,
  ...conversationRoutes,
  ...dashboardRoutes,
];
