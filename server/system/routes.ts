import { z } from "zod";
import { defineRoute } from "@/server/http/route";
import { getHealth } from "./health";

export const systemRoutes = [
  defineRoute({
    method: "GET",
    path: "/api/health",
    auth: "none",
    tag: "system",
    summary:
      "Liveness; the database, whether it is reached through a transaction pooler and how changes are heard, its read replicas' state and lag; who runs background work; the revision cache's figures",
    response: z.object({
      status: z.literal("ok"),
      database: z.object({
        kind: z.enum(["pglite", "postgres"]),
        version: z.string(),
        pooler: z.enum(["transaction", "none"]).describe("transaction: DATABASE_URL is a transaction-mode pooler"),
        prepared_statements: z.boolean().describe("Whether the driver prepares statements (never through a pooler)"),
        notifications: z
          .enum(["listen", "in-process", "unavailable"])
          .describe("unavailable: no session to LISTEN on (a pooler without DATABASE_DIRECT_URL); workers poll"),
        replicas: z
          .array(
            z.strictObject({
              name: z.string().describe("host:port/database"),
              state: z
                .enum(["starting", "ready", "lagging", "down", "not_a_replica"])
                .describe("Only ready replicas serve reads; the others are probed until they are"),
              lag_ms: z
                .number()
                .optional()
                .describe("Age of the newest primary position it had replayed at its last probe"),
              replayed_lsn: z.string().optional(),
              error: z.string().optional(),
            }),
          )
          .optional()
          .describe("The read replicas (DATABASE_REPLICA_URLS), as their last probe found them"),
      }),
      workers: z
        .enum(["in-process", "after-response", "off"])
        .describe("in-process loops, a bounded drain after each answer (serverless), or other processes"),
      revision_cache: z.object({
        coherence: z
          .enum(["listen", "expiry"])
          .describe("listen: dropped on each change's notification; expiry: answers are served at most ttl_ms"),
        listening: z.boolean(),
        ttl_ms: z.number().optional(),
        entries: z.number(),
        bytes: z.number(),
        max_entries: z.number(),
        max_bytes: z.number(),
        hits: z.number(),
        misses: z.number(),
        invalidations: z.number(),
        evictions: z.number(),
        held: z
          .number()
          .describe(
            "this process's changes whose notification has not come back yet; their answers are neither served nor stored meanwhile",
          ),
      }),
    }),
    handler: async ({ ctx }) => getHealth(ctx.app),
  }),
];
