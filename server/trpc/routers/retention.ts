import { z } from "zod";
import {
  deleteChatSessionData,
  deleteUserData,
  getRetentionSettings,
  retentionSettingsInput,
  setRetentionSettings,
} from "@/server/retention";
import { createTRPCRouter, ownerProcedure, projectProcedure } from "../init";

/** Settings' retention section and the deletion of a session's or a user's data: the functions the REST routes call. */
export const retentionRouter = createTRPCRouter({
  settings: projectProcedure.query(({ ctx }) => getRetentionSettings(ctx.app.db, ctx.principal.projectId)),
  set: ownerProcedure
    .input(retentionSettingsInput)
    .mutation(({ ctx, input }) => setRetentionSettings(ctx.app, ctx.principal.projectId, input)),
  deleteSession: ownerProcedure
    .input(z.strictObject({ sessionId: z.string().min(1).max(500) }))
    .mutation(({ ctx, input }) => deleteChatSessionData(ctx.app.db, ctx.principal.projectId, input.sessionId)),
  deleteUser: ownerProcedure
    .input(z.strictObject({ userId: z.string().min(1).max(500) }))
    .mutation(({ ctx, input }) => deleteUserData(ctx.app.db, ctx.principal.projectId, input.userId)),
});
