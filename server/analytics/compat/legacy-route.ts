import { z } from "zod";
import { defineRoute } from "@/server/http/route";
import { queryLegacyAnalytics } from "./legacy-analytics";

const totals = z.strictObject({ count: z.number().int(), duration: z.number(), costs: z.number(), tokens: z.number() });

/** The reference implementation's legacy analytics route (hourly or any-minute buckets, zero-filled). */
export const legacyAnalyticsRoute = defineRoute({
  method: "POST",
  path: "/api/tracing/spans/analytics",
  auth: "api_key",
  role: "viewer",
  tag: "analytics",
  summary:
    "Legacy (reference shape): count, summed duration, costs and tokens of the runs (focus trace) or spans (focus span), and of the failed ones, per bucket of ingestion time, every bucket zero-filled",
  body: z.record(z.string(), z.unknown()),
  response: z.strictObject({
    count: z.number().int().describe("Number of buckets"),
    buckets: z.array(
      z.strictObject({
        timestamp: z.string(),
        interval: z.number().describe("Minutes"),
        total: totals,
        errors: totals,
      }),
    ),
  }),
  errors: ["bad_request", "invalid_analytics_query", "invalid_filtering", "too_many_buckets", "too_many_rows"],
  handler: async ({ ctx, body }) =>
    queryLegacyAnalytics(
      ctx.app.db,
      ctx.principal.projectId,
      body,
      new URL(ctx.request.url).searchParams,
      ctx.app.now(),
    ),
});
