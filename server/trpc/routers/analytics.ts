import { analyticsQuerySchema, queryAnalytics } from "@/server/analytics";
import { createTRPCRouter, projectProcedure } from "../init";

/** The Analytics page and the agents' charts: the same query function as `POST /api/analytics/query` (any role may read). */
export const analyticsRouter = createTRPCRouter({
  query: projectProcedure
    .input(analyticsQuerySchema)
    .query(({ ctx, input }) => queryAnalytics(ctx.app.db, ctx.principal.projectId, input, { now: ctx.app.now() })),
});
