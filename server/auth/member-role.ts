import { and, eq } from "drizzle-orm";
import type { Executor } from "@/server/db";
import { projectMembers } from "@/server/db/schema";

/**
 * A user's role in a project as stored now, or undefined when they are not a member: for work
 * that runs as a member without a request (an automation's firing runs as its creator).
 */
export async function memberRole(db: Executor, projectId: string, userId: string): Promise<string | undefined> {
  const [member] = await db
    .select({ role: projectMembers.role })
    .from(projectMembers)
    .where(and(eq(projectMembers.projectId, projectId), eq(projectMembers.userId, userId)));
  return member?.role;
}
