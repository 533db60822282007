import { z } from "zod";
import { createApiKey, listApiKeys, revokeApiKey } from "@/server/auth";
import { apiKeyToWire, createApiKeyInput } from "@/server/auth";
import { createTRPCRouter, memberProcedure, projectProcedure } from "../init";

const idInput = z.strictObject({ id: z.string().uuid() });

/** The project's API keys, in the same wire shape as the REST API. */
export const apiKeysRouter = createTRPCRouter({
  list: projectProcedure.query(async ({ ctx }) =>
    (await listApiKeys(ctx.app.db, ctx.principal.projectId)).map((key) => apiKeyToWire(key)),
  ),

  /** The only response that carries the secret. */
  create: memberProcedure.input(createApiKeyInput).mutation(async ({ ctx, input }) => {
    const { projectId, userId } = ctx.principal;
    const { apiKey, secret } = await createApiKey(ctx.app.db, {
      projectId,
      userId,
      name: input.name,
      scopes: input.scopes,
      expiresAt: input.expires_at ? new Date(input.expires_at) : null,
      now: ctx.app.now(),
    });
    return apiKeyToWire(apiKey, secret);
  }),

  revoke: memberProcedure
    .input(idInput)
    .mutation(async ({ ctx, input }) =>
      apiKeyToWire(await revokeApiKey(ctx.app.db, ctx.principal.projectId, input.id)),
    ),
});
