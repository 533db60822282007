import { z } from "zod";
import { connectedProviders, runnableModels, testStoredConnection } from "@/server/agent-runs";
import {
  connectionToWire,
  isModelConnection,
  plainSecretToWire,
  secretInputSchema,
  secretToWire,
  vaultOf,
  type PlainSecret,
  type VaultSecret,
} from "@/server/vault";
import { createTRPCRouter, memberProcedure, projectProcedure } from "../init";

const idInput = z.strictObject({ id: z.string().uuid() });

const isPlainSecret = (secret: VaultSecret): secret is PlainSecret => !isModelConnection(secret);

/** The vault in the REST wire shape (keys and values masked): model connections and plain secrets apart. */
export const connectionsRouter = createTRPCRouter({
  list: projectProcedure.query(async ({ ctx }) =>
    (await vaultOf(ctx.app).list(ctx.principal.projectId)).filter(isModelConnection).map(connectionToWire),
  ),

  /** Plain secrets, for code tools' `secrets` and MCP `header_secret_refs`. */
  secrets: projectProcedure.query(async ({ ctx }) =>
    (await vaultOf(ctx.app).list(ctx.principal.projectId)).filter(isPlainSecret).map(plainSecretToWire),
  ),

  /** For the model picker: the providers a run reaches now, and whose credential it would use. */
  providers: projectProcedure.query(async ({ ctx }) => connectedProviders(ctx.app, ctx.principal.projectId)),

  /** Custom providers and the models they list: the model picker offers them. */
  customModels: projectProcedure.query(
    async ({ ctx }) => (await runnableModels(ctx.app, ctx.principal.projectId)).custom,
  ),

  create: memberProcedure
    .input(secretInputSchema)
    .mutation(async ({ ctx, input }) => secretToWire(await vaultOf(ctx.app).create(ctx.principal.projectId, input))),

  update: memberProcedure
    .input(z.strictObject({ id: z.string().uuid(), secret: secretInputSchema }))
    .mutation(async ({ ctx, input }) =>
      secretToWire(await vaultOf(ctx.app).update(ctx.principal.projectId, input.id, input.secret)),
    ),

  delete: memberProcedure
    .input(idInput)
    .mutation(async ({ ctx, input }) => secretToWire(await vaultOf(ctx.app).delete(ctx.principal.projectId, input.id))),

  /** Runs the model, so members only, like every change. */
  test: memberProcedure
    .input(idInput)
    .mutation(async ({ ctx, input }) => testStoredConnection(ctx.app, ctx.principal.projectId, input.id)),
});
