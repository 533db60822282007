import { z } from "zod";
import { traceSearchQuery, traceSearchSchema } from "@/server/tracing";
import { fetchTrace, queryTraces } from "@/server/tracing";
import { createTRPCRouter, projectProcedure } from "../init";

/** Traces, read the same way `POST /api/traces/query` and `GET /api/traces/{id}` read them. */
export const tracesRouter = createTRPCRouter({
  list: projectProcedure.input(traceSearchSchema).query(async ({ ctx, input }) => {
    const page = await queryTraces(ctx.app.db, ctx.principal, traceSearchQuery(input, new Date()));
    return { traces: page.traces, next: page.windowing?.next };
  }),

  get: projectProcedure
    .input(z.strictObject({ traceId: z.string().min(1).max(64) }))
    .query(async ({ ctx, input }) => fetchTrace(ctx.app.db, ctx.principal, input.traceId)),
});
