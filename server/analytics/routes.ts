import { z } from "zod";
import { defineRoute } from "@/server/http/route";
import { queryAnalytics } from "./query-analytics";
import { queryReferenceAnalytics } from "./reference/reference-analytics";
import { analyticsQuerySchema } from "./query-request";
import { analyticsResponseWire } from "./wire";

const TAG = "analytics";

const referenceResponse = z.strictObject({
  count: z.number().int().describe("Number of buckets (buckets without data are left out)"),
  buckets: z.array(
    z.strictObject({
      timestamp: z.string(),
      interval: z.number().describe("Minutes"),
      metrics: z.record(z.string(), z.record(z.string(), z.unknown())),
    }),
  ),
  query: z.record(z.string(), z.unknown()),
  specs: z.array(z.record(z.string(), z.unknown())),
});

/** The reference's specs-driven route, at its current path and its deprecated one. */
const referenceRoute = (path: string, summary: string) =>
  defineRoute({
    method: "POST",
    path,
    auth: "api_key",
    role: "viewer",
    tag: TAG,
    summary,
    body: z.record(z.string(), z.unknown()),
    response: referenceResponse,
    errors: ["bad_request", "invalid_analytics_query", "invalid_filtering", "too_many_buckets", "too_many_rows"],
    handler: async ({ ctx, body }) =>
      queryReferenceAnalytics(
        ctx.app.db,
        ctx.principal.projectId,
        body,
        new URL(ctx.request.url).searchParams,
        ctx.app.now(),
      ),
  });

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
  referenceRoute(
    "/api/spans/analytics/query",
    "Reference shape: summaries (count, sum, percentiles, histogram, frequencies) of root spans' attributes per bucket of ingestion time",
  ),
  referenceRoute("/api/tracing/analytics/query", "Deprecated: the same as POST /api/spans/analytics/query"),
];
