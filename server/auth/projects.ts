import { eq } from "drizzle-orm";
import { NotFoundError } from "@/server/core/errors";
import { newId } from "@/server/core/ids";
import type { ProjectSetup } from "@/server/core/app-context";
import type { Executor, Transaction } from "@/server/db";
import { projectMembers, projects } from "@/server/db/schema";

export interface ProjectRecord {
  id: string;
  name: string;
  createdAt: Date;
}

/** A project, its owner's membership and its starting rows (`setups`, from the composition root). */
export async function createProject(
  tx: Transaction,
  setups: readonly ProjectSetup[],
  input: { name: string; ownerId: string; isDefault?: boolean },
): Promise<ProjectRecord> {
  const [project] = await tx
    .insert(projects)
    .values({ id: newId(), name: input.name, isDefault: input.isDefault ?? false })
    .returning({ id: projects.id, name: projects.name, createdAt: projects.createdAt });
  await tx.insert(projectMembers).values({ projectId: project.id, userId: input.ownerId, role: "owner" });
  for (const setup of setups) await setup(tx, { projectId: project.id, ownerId: input.ownerId });
  return project;
}

export async function getProject(db: Executor, projectId: string): Promise<ProjectRecord> {
  const [project] = await db
    .select({ id: projects.id, name: projects.name, createdAt: projects.createdAt })
    .from(projects)
    .where(eq(projects.id, projectId));
  if (!project) throw new NotFoundError(`Project ${projectId} not found`);
  return project;
}
