import { z } from "zod";
import { createProject, selectProject } from "@/server/auth";
import { createTRPCRouter, sessionProcedure } from "../init";

/** The signed-in visitor: who they are, their projects, the project switcher. */
export const accountRouter = createTRPCRouter({
  me: sessionProcedure.query(({ ctx }) => ({
    user: ctx.session.user,
    projects: ctx.session.memberships,
    current: ctx.principal,
  })),

  /** The session's project changes on the server; the client never names the project per call. */
  switchProject: sessionProcedure
    .input(z.strictObject({ projectId: z.string().uuid() }))
    .mutation(async ({ ctx, input }) => selectProject(ctx.app, ctx.session, input.projectId)),

  createProject: sessionProcedure
    .input(z.strictObject({ name: z.string().trim().min(1).max(200) }))
    .mutation(async ({ ctx, input }) => {
      const project = await ctx.app.db.transaction((tx) =>
        createProject(tx, ctx.app.projectSetups, { name: input.name, ownerId: ctx.session.user.id }),
      );
      const session = {
        ...ctx.session,
        memberships: [
          ...ctx.session.memberships,
          { projectId: project.id, projectName: project.name, role: "owner" as const },
        ],
      };
      return selectProject(ctx.app, session, project.id);
    }),
});
