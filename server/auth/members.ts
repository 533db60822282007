import { and, eq, inArray } from "drizzle-orm";
import type { Executor } from "@/server/db";
import { projectMembers, users } from "@/server/db/schema";

export interface Member {
  id: string;
  name: string | null;
  email: string;
}

/** The members of a project among `userIds`: how the playground names authors and deployers. */
export async function findProjectMembers(db: Executor, projectId: string, userIds: string[]): Promise<Member[]> {
  if (userIds.length === 0) return [];
  return db
    .select({ id: users.id, name: users.name, email: users.email })
    .from(users)
    .innerJoin(projectMembers, eq(projectMembers.userId, users.id))
    .where(and(eq(projectMembers.projectId, projectId), inArray(users.id, userIds)));
}
