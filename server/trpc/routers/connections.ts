import { z } from "zod";
import { connectedProviders, testStoredConnection } from "@/server/runner/providers";
import { secretInputSchema, secretToWire, vaultOf } from "@/server/vault";
import { createTRPCRouter, memberProcedure, projectProcedure } from "../init";

const idInput = z.strictObject({ id: z.string().uuid() });

/** The vault's provider keys and custom providers, in the REST wire shape (keys masked). */
export const connectionsRouter = createTRPCRouter({
  list: projectProcedure.query(async ({ ctx }) => (await vaultOf(ctx.app).list(ctx.principal.projectId)).map(secretToWire)),

  /** For the model picker: the providers a run reaches now, and whose credential it would use. */
  providers: projectProcedure.query(async ({ ctx }) => connectedProviders(ctx.app, ctx.principal.projectId)),

  create: memberProcedure.input(secretInputSchema).mutation(async ({ ctx, input }) => secretToWire(await vaultOf(ctx.app).create(ctx.principal.projectId, input))),

  update: memberProcedure
    .input(z.strictObject({ id: z.string().uuid(), secret: secretInputSchema }))
    .mutation(async ({ ctx, input }) => secretToWire(await vaultOf(ctx.app).update(ctx.principal.projectId, input.id, input.secret))),

  delete: memberProcedure.input(idInput).mutation(async ({ ctx, input }) => secretToWire(await vaultOf(ctx.app).delete(ctx.principal.projectId, input.id))),

  /** Runs the model, so members only, like every change. */
  test: memberProcedure.input(idInput).mutation(async ({ ctx, input }) => testStoredConnection(ctx.app, ctx.principal.projectId, input.id)),
});
