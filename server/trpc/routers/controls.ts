import { z } from "zod";
import {
  aliasesResource,
  allowlistsResource,
  budgetsResource,
  createControl,
  deleteControl,
  listControls,
  projectRefusedModels,
  rateLimitsResource,
  updateControl,
  type ControlResource,
} from "@/server/controls";
import { createTRPCRouter, ownerProcedure, projectProcedure } from "../init";

const id = z.string().uuid();

/** The same four procedures over each kind of control, calling the functions the REST routes call. */
function controlRouter<I, R extends { id: string }, W>(resource: ControlResource<I, R, W>) {
  return createTRPCRouter({
    list: projectProcedure.query(async ({ ctx }) => listControls(ctx.app, resource, ctx.principal.projectId)),
    create: ownerProcedure
      .input(resource.input)
      .mutation(async ({ ctx, input }) => createControl(ctx.app, resource, ctx.principal.projectId, input as I)),
    update: ownerProcedure
      .input(z.object({ id, control: resource.input }))
      .mutation(async ({ ctx, input }) =>
        updateControl(ctx.app, resource, ctx.principal.projectId, input.id, input.control as I),
      ),
    delete: ownerProcedure
      .input(z.strictObject({ id }))
      .mutation(async ({ ctx, input }) => deleteControl(ctx.app, resource, ctx.principal.projectId, input.id)),
  });
}

/** Budgets (with their spend), rate limits, model allowlists and model aliases: the Settings sections. */
export const controlsRouter = createTRPCRouter({
  budgets: controlRouter(budgetsResource),
  rateLimits: controlRouter(rateLimitsResource),
  allowlists: controlRouter(allowlistsResource),
  aliases: controlRouter(aliasesResource),
  /** The models (`provider/model`) the project's allowlist refuses, with its patterns: the model picker marks them. */
  refusedModels: projectProcedure
    .input(z.strictObject({ models: z.array(z.string().min(1).max(300)).max(500) }))
    .query(async ({ ctx, input }) => projectRefusedModels(ctx.app, ctx.principal.projectId, input.models)),
});
