import { eq } from "drizzle-orm";
import { NotFoundError } from "@/server/core/errors";
import { projects } from "@/server/db/schema";
import { createTRPCRouter, projectProcedure } from "../init";

/** The project the playground acts in, for the header. */
export const projectRouter = createTRPCRouter({
  current: projectProcedure.query(async ({ ctx }) => {
    // TODO: call a `getProject(db, id)` from server/auth once tenancy exports one; no REST route reads a project yet.
    const [project] = await ctx.app.db
      .select({ id: projects.id, name: projects.name })
      .from(projects)
      .where(eq(projects.id, ctx.principal.projectId));
    if (!project) throw new NotFoundError(`Project ${ctx.principal.projectId} not found`);
    return project;
  }),
});
