import { getProject } from "@/server/auth";
import { createTRPCRouter, projectProcedure } from "../init";

/** The project the playground acts in, for the header. */
export const projectRouter = createTRPCRouter({
  current: projectProcedure.query(async ({ ctx }) => {
    const project = await getProject(ctx.app.db, ctx.principal.projectId);
    return { id: project.id, name: project.name };
  }),
});
