import { z } from "zod";
import { createApiKey, listApiKeys, revokeApiKey } from "@/server/auth";
import { apiKeyToWire } from "@/server/auth";
import { createTRPCRouter, memberProcedure, projectProcedure } from "../init";

// The same limits as POST /api/keys.
const createInput = z.strictObject({ name: z.string().trim().min(1).max(100).optional() });
const idInput = z.strictObject({ id: z.string().uuid() });

/** The project's API keys, in the same wire shape as the REST API. */
export const apiKeysRouter = createTRPCRouter({
  list: projectProcedure.query(async ({ ctx }) =>
    (await listApiKeys(ctx.app.db, ctx.principal.projectId)).map((key) => apiKeyToWire(key)),
  ),

  /** The only response that carries the secret. */
  create: memberProcedure.input(createInput).mutation(async ({ ctx, input }) => {
    const { projectId, userId } = ctx.principal;
    const { apiKey, secret } = await createApiKey(ctx.app.db, { projectId, userId, name: input.name });
    return apiKeyToWire(apiKey, secret);
  }),

  revoke: memberProcedure
    .input(idInput)
    .mutation(async ({ ctx, input }) =>
      apiKeyToWire(await revokeApiKey(ctx.app.db, ctx.principal.projectId, input.id)),
    ),
});
