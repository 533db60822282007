import { z } from "zod";
import { deletePriceOverride, listPriceOverrides, priceOverrideInput, setPriceOverride } from "@/server/pricing";
import { createTRPCRouter, memberProcedure, projectProcedure } from "../init";

/** The project's own model prices, over the functions `/api/pricing/prices` calls. */
export const pricingRouter = createTRPCRouter({
  list: projectProcedure.query(({ ctx }) => listPriceOverrides(ctx.app.db, ctx.principal.projectId)),
  set: memberProcedure
    .input(priceOverrideInput)
    .mutation(({ ctx, input }) =>
      setPriceOverride(ctx.app.db, { projectId: ctx.principal.projectId, userId: ctx.principal.userId }, input),
    ),
  delete: memberProcedure
    .input(z.strictObject({ id: z.string().uuid() }))
    .mutation(({ ctx, input }) => deletePriceOverride(ctx.app.db, ctx.principal.projectId, input.id)),
});
