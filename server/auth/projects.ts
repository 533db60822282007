import { eq } from "drizzle-orm";
import { NotFoundError } from "@/server/core/errors";
import { newId } from "@/server/core/ids";
import type { Executor, Transaction } from "@/server/db";
import { projectMembers, projects } from "@/server/db/schema";

export interface ProjectRecord {
  id: string;
  name: string;
  createdAt: Date;
}

type ProjectSetup = (tx: Transaction, project: { projectId: string; ownerId: string }) => Promise<void>;
const setups: ProjectSetup[] = [];

/**
 * Areas that give every new project some starting rows (environments, for one) register here,
 * so tenancy does not need to know them.
 */
export function onProjectCreated(setup: ProjectSetup): void {
  if (!setups.includes(setup)) setups.push(setup);
}

export async function createProject(
  tx: Transaction,
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
