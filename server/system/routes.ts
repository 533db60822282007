import { z } from "zod";
import { defineRoute } from "@/server/http/route";
import { getHealth } from "./health";

export const systemRoutes = [
  defineRoute({
    method: "GET",
    path: "/api/health",
    auth: "none",
    tag: "system",
    summary: "Liveness, database kind and server version",
    response: z.object({
      status: z.literal("ok"),
      database: z.object({ kind: z.enum(["pglite", "postgres"]), version: z.string() }),
    }),
    handler: async ({ ctx }) => getHealth(ctx.app),
  }),
];
