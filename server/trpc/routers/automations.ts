import { z } from "zod";
import {
  automationInputSchema,
  automationToWire,
  automationView,
  automationViews,
  createAutomation,
  cronPreview,
  cronPreviewSchema,
  deleteAutomation,
  firingToWire,
  fireTest,
  firingViews,
  replaceAutomation,
  setAutomationActive,
} from "@/server/automations";
import { createTRPCRouter, memberProcedure, projectProcedure } from "../init";

const idInput = z.strictObject({ id: z.string().uuid() });

/** The Automations page: the same calls as server/automations/routes.ts, in the REST wire shape. */
export const automationsRouter = createTRPCRouter({
  list: projectProcedure.query(({ ctx }) => automationViews(ctx.app, ctx.principal.projectId)),
  get: projectProcedure
    .input(idInput)
    .query(({ ctx, input }) => automationView(ctx.app, ctx.principal.projectId, input.id)),
  preview: projectProcedure.input(cronPreviewSchema).query(({ ctx, input }) => cronPreview(input, ctx.app.now())),
  /** The only answer that carries an inbound trigger's secret. */
  create: memberProcedure
    .input(z.strictObject({ automation: automationInputSchema }))
    .mutation(async ({ ctx, input }) => {
      const { row, secret } = await createAutomation(ctx.app, ctx.principal, input.automation);
      return automationToWire(row, { secret });
    }),
  update: memberProcedure
    .input(z.strictObject({ id: z.string().uuid(), automation: automationInputSchema }))
    .mutation(async ({ ctx, input }) => {
      const { row, secret } = await replaceAutomation(ctx.app, ctx.principal, input.id, input.automation);
      return automationToWire(row, { secret });
    }),
  setActive: memberProcedure
    .input(z.strictObject({ id: z.string().uuid(), active: z.boolean() }))
    .mutation(async ({ ctx, input }) =>
      automationToWire(await setAutomationActive(ctx.app, ctx.principal.projectId, input.id, input.active)),
    ),
  remove: memberProcedure.input(idInput).mutation(async ({ ctx, input }) => {
    await deleteAutomation(ctx.app, ctx.principal, input.id);
    return { deleted: true };
  }),
  test: memberProcedure
    .input(idInput)
    .mutation(async ({ ctx, input }) => firingToWire(await fireTest(ctx.app, ctx.principal.projectId, input.id))),
  deliveries: projectProcedure
    .input(idInput)
    .query(({ ctx, input }) => firingViews(ctx.app, ctx.principal.projectId, input.id)),
});
