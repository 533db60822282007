import { timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { ForbiddenError, UnauthorizedError } from "@/server/core/errors";
import { defineRoute } from "@/server/http/route";
import { drivenRunsEnded } from "@/server/agent-runs";
import { refreshLiveRuns } from "@/server/evaluations";
import { drainBackgroundWorkers } from "./workers";

/**
 * Serverless hosts (Vercel) keep no process between requests, so no worker loop can run there;
 * a scheduled request to this route does a bounded batch of each queue instead (vercel.json).
 */
export const cronRoutes = [
  defineRoute({
    method: "GET",
    path: "/api/cron/work",
    auth: "none",
    tag: "system",
    summary: "Drain a bounded batch of every background queue (trace ingest, webhook delivery); needs CRON_SECRET",
    query: z.object({ limit: z.coerce.number().int().min(1).max(1000).default(100) }),
    response: z.strictObject({
      workers: z
        .record(
          z.string(),
          z.union([z.strictObject({ handled: z.number().int() }), z.strictObject({ error: z.string() })]),
        )
        .describe("Each background worker's batch, by name"),
    }),
    errors: ["cron_disabled", "invalid_cron_secret"],
    handler: async ({ ctx, query }) => {
      checkCronSecret(ctx.app.config.cronSecret, ctx.request.headers.get("authorization"));
      const workers = await drainBackgroundWorkers(ctx.app, query.limit);
      // A run the sweep took over goes on in this process: without a worker loop (serverless),
      // nothing may still run once the answer is sent, since the platform freezes the function.
      if (ctx.app.config.workers !== "in-process") await drivenRunsEnded(ctx.app.db);
      return { workers };
    },
  }),
  defineRoute({
    method: "POST",
    path: "/api/admin/evaluations/runs/refresh",
    auth: "none",
    tag: "evaluations",
    summary:
      "The live-evaluation tick over [trigger_datetime − trigger_interval minutes, trigger_datetime]; needs CRON_SECRET (the workers also tick every minute by themselves)",
    query: z.object({
      trigger_interval: z.coerce.number().int().min(1).max(60).default(1),
      trigger_datetime: z.iso.datetime({ offset: true }).optional(),
    }),
    response: z.strictObject({
      status: z.enum(["success", "failure", "error"]),
      runs: z.number().int().optional().describe("Live runs ticked"),
      scenarios: z.number().int().optional().describe("Scenarios minted (one per new matching trace)"),
      closed: z.number().int().optional().describe("Live runs closed because they can no longer run"),
      failed: z.number().int().optional().describe("Live runs whose tick failed; the next tick retries"),
    }),
    errors: ["cron_disabled", "empty_testset", "invalid_cron_secret", "unsupported_live_graph"],
    handler: async ({ ctx, query }) => {
      // The reference implementation leaves this route open inside the app; here it takes the cron
      // secret.
      checkCronSecret(ctx.app.config.cronSecret, ctx.request.headers.get("authorization"));
      const trigger = query.trigger_datetime ? new Date(query.trigger_datetime) : new Date();
      return refreshLiveRuns(ctx.app.db, trigger, query.trigger_interval);
    },
  }),
];

function checkCronSecret(expected: string | undefined, header: string | null): void {
  if (!expected)
    throw new ForbiddenError("The cron route is disabled; set CRON_SECRET on the server to enable it", "cron_disabled");
  const given = Buffer.from(header?.replace(/^Bearer\s+/i, "") ?? "");
  const wanted = Buffer.from(expected);
  if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) {
    throw new UnauthorizedError("Send `Authorization: Bearer <CRON_SECRET>`", "invalid_cron_secret");
  }
}
