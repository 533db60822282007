import { z } from "zod";
import { defineRoute } from "@/server/http/route";
import { getHealth } from "./health";

export const systemRoutes = [
  defineRoute({
    method: "GET",
    path: "/api/health",
    auth: "none",
    tag: "system",
    summary: "Liveness, database kind and server version, and the revision cache's figures",
    response: z.object({
      status: z.literal("ok"),
      database: z.object({ kind: z.enum(["pglite", "postgres"]), version: z.string() }),
      revision_cache: z.object({
        listening: z.boolean(),
        entries: z.number(),
        bytes: z.number(),
        max_entries: z.number(),
        max_bytes: z.number(),
        hits: z.number(),
        misses: z.number(),
        invalidations: z.number(),
        evictions: z.number(),
      }),
    }),
    handler: async ({ ctx }) => getHealth(ctx.app),
  }),
];
