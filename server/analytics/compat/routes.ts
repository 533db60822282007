import { z } from "zod";
import { defineRoute } from "@/server/http/route";
import { legacyAnalyticsRoute } from "./legacy-route";
import { queryCompatAnalytics } from "./query";

/**
 * The compat doors: the reference implementation's specs-driven summaries, at its current path and
 * its deprecated one.
 */

const TAG = "analytics";

const compatResponse = z.strictObject({
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

/** The reference implementation's specs-driven route, at its current path and its deprecated one. */
const compatRoute = (path: string, summary: string) =>
  defineRoute({
    method: "POST",
    path,
    auth: "api_key",
    role: "viewer",
    tag: TAG,
    summary,
    body: z.record(z.string(), z.unknown()),
    response: compatResponse,
    errors: ["bad_request", "invalid_analytics_query", "invalid_filtering", "too_many_buckets", "too_many_rows"],
    handler: async ({ ctx, body }) =>
      queryCompatAnalytics(
        ctx.app.db,
        ctx.principal.projectId,
        body,
        new URL(ctx.request.url).searchParams,
        ctx.app.now(),
      ),
  });

export const compatRoutes = [
  compatRoute(
    "/api/spans/analytics/query",
    "Reference shape: summaries (count, sum, percentiles, histogram, frequencies) of root spans' attributes per bucket of ingestion time",
  ),
  compatRoute("/api/tracing/analytics/query", "Deprecated: the same as POST /api/spans/analytics/query"),
  legacyAnalyticsRoute,
];
