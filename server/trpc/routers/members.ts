import { z } from "zod";
import {
  createInvite,
  listInvites,
  listProjectMembers,
  PROJECT_ROLES,
  removeMember,
  revokeInvite,
  setMemberRole,
} from "@/server/auth";
import { BadRequestError } from "@/server/core/errors";
import { createTRPCRouter, ownerProcedure, projectProcedure } from "../init";

const role = z.enum(PROJECT_ROLES);
const userId = z.string().uuid();

/** Settings > Members: who is in the project, with which role, and invite links (owners only). */
export const membersRouter = createTRPCRouter({
  list: projectProcedure.query(({ ctx }) => listProjectMembers(ctx.app.db, ctx.principal.projectId)),

  setRole: ownerProcedure
    .input(z.strictObject({ userId, role }))
    .mutation(({ ctx, input }) => setMemberRole(ctx.app.db, ctx.principal.projectId, input.userId, input.role)),

  remove: ownerProcedure.input(z.strictObject({ userId })).mutation(({ ctx, input }) => {
    if (input.userId === ctx.principal.userId)
      throw new BadRequestError("You cannot remove yourself; ask another owner", "remove_self");
    return removeMember(ctx.app.db, ctx.principal.projectId, input.userId);
  }),

  invites: ownerProcedure.query(({ ctx }) => listInvites(ctx.app.db, ctx.principal.projectId)),

  /** The link's token is returned only here; the page builds the URL from its own origin. */
  invite: ownerProcedure.input(z.strictObject({ role })).mutation(async ({ ctx, input }) => {
    const { invite, token } = await createInvite(ctx.app.db, {
      projectId: ctx.principal.projectId,
      createdBy: ctx.principal.userId,
      role: input.role,
    });
    return { ...invite, token };
  }),

  revokeInvite: ownerProcedure
    .input(z.strictObject({ id: z.string().uuid() }))
    .mutation(({ ctx, input }) => revokeInvite(ctx.app.db, ctx.principal.projectId, input.id)),
});
