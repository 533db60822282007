import { z } from "zod";
import {
  alertToWire,
  createMonitor,
  deleteMonitor,
  getMonitor,
  listAlerts,
  listMonitors,
  monitorInputSchema,
  monitorToWire,
  muteInputSchema,
  muteMonitor,
} from "@/server/monitors";
import { createTRPCRouter, memberProcedure, projectProcedure } from "../init";

const idInput = z.strictObject({ id: z.string().uuid() });

/** The Monitors page: the same calls as server/monitors/routes.ts, in the REST wire shape. */
export const monitorsRouter = createTRPCRouter({
  list: projectProcedure.query(async ({ ctx }) =>
    (await listMonitors(ctx.app, ctx.principal.projectId)).map((m) => monitorToWire(m, ctx.app.now())),
  ),
  get: projectProcedure
    .input(idInput)
    .query(async ({ ctx, input }) =>
      monitorToWire(await getMonitor(ctx.app, ctx.principal.projectId, input.id), ctx.app.now()),
    ),
  alerts: projectProcedure
    .input(idInput)
    .query(async ({ ctx, input }) =>
      (await listAlerts(ctx.app, ctx.principal.projectId, input.id)).items.map(alertToWire),
    ),
  create: memberProcedure
    .input(z.strictObject({ monitor: monitorInputSchema }))
    .mutation(async ({ ctx, input }) =>
      monitorToWire(await createMonitor(ctx.app, ctx.principal, input.monitor), ctx.app.now()),
    ),
  mute: memberProcedure
    .input(muteInputSchema.extend({ id: z.string().uuid() }))
    .mutation(async ({ ctx, input }) =>
      monitorToWire(
        await muteMonitor(ctx.app, ctx.principal.projectId, input.id, input.until ? new Date(input.until) : null),
        ctx.app.now(),
      ),
    ),
  remove: memberProcedure.input(idInput).mutation(async ({ ctx, input }) => {
    await deleteMonitor(ctx.app, ctx.principal.projectId, input.id);
    return { deleted: true };
  }),
});
