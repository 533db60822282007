import { timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { ForbiddenError, UnauthorizedError } from "@/server/core/errors";
import { defineRoute } from "@/server/http/route";
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
    handler: async ({ ctx, query }) => {
      checkCronSecret(ctx.app.config.cronSecret, ctx.request.headers.get("authorization"));
      return { workers: await drainBackgroundWorkers(ctx.app, query.limit) };
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
