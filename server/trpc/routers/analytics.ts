import { z } from "zod";
import {
  analyticsQuerySchema,
  conversationsQuerySchema,
  createDashboard,
  dashboardInputSchema,
  dashboardToWire,
  deleteDashboard,
  listDashboards,
  listSessions,
  listUsers,
  queryAnalytics,
  sessionTurns,
} from "@/server/analytics";
import { createTRPCRouter, memberProcedure, projectProcedure } from "../init";

/** The Analytics page and the agents' charts: the same query function as `POST /api/analytics/query` (any role may read). */
export const analyticsRouter = createTRPCRouter({
  query: projectProcedure
    .input(analyticsQuerySchema)
    .query(({ ctx, input }) => queryAnalytics(ctx.app.db, ctx.principal.projectId, input, { now: ctx.app.now() })),
  /** The Sessions and Users views: the same functions as `POST /api/analytics/sessions` and `/users`. */
  sessions: projectProcedure
    .input(conversationsQuerySchema)
    .query(({ ctx, input }) => listSessions(ctx.app.db, ctx.principal.projectId, input, ctx.app.now())),
  users: projectProcedure
    .input(conversationsQuerySchema)
    .query(({ ctx, input }) => listUsers(ctx.app.db, ctx.principal.projectId, input, ctx.app.now())),
  sessionTurns: projectProcedure
    .input(z.object({ sessionId: z.string().min(1).max(500) }))
    .query(({ ctx, input }) => sessionTurns(ctx.app.db, ctx.principal.projectId, input.sessionId)),
  /** Saved dashboards: the same functions as `/api/analytics/dashboards/` (members save, anyone reads). */
  dashboards: projectProcedure.query(async ({ ctx }) =>
    (await listDashboards(ctx.app.db, ctx.principal.projectId)).map(dashboardToWire),
  ),
  saveDashboard: memberProcedure
    .input(dashboardInputSchema)
    .mutation(async ({ ctx, input }) =>
      dashboardToWire(await createDashboard(ctx.app.db, ctx.principal, input, ctx.app.now())),
    ),
  deleteDashboard: memberProcedure
    .input(z.strictObject({ id: z.string().uuid() }))
    .mutation(({ ctx, input }) => deleteDashboard(ctx.app.db, ctx.principal.projectId, input.id)),
});
