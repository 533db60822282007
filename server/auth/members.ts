import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { BadRequestError, NotFoundError } from "@/server/core/errors";
import type { Database, Executor } from "@/server/db";
import { projectMembers, projects, users } from "@/server/db/schema";
import { announcePrincipalChange, principalCacheFor } from "./principal-cache";
import { isProjectRole, type ProjectRole } from "@/server/core/roles";
import { recordAudit } from "@/server/audit";

export interface Member {
  id: string;
  name: string | null;
  email: string;
}

export interface ProjectMember extends Member {
  role: ProjectRole;
  joinedAt: Date;
}

export interface Membership {
  projectId: string;
  projectName: string;
  role: ProjectRole;
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

export async function listProjectMembers(db: Executor, projectId: string): Promise<ProjectMember[]> {
  const rows = await db
    .select({
      id: users.id,
      name: users.name,
      email: users.email,
      role: projectMembers.role,
      joinedAt: projectMembers.createdAt,
    })
    .from(projectMembers)
    .innerJoin(users, eq(users.id, projectMembers.userId))
    .where(eq(projectMembers.projectId, projectId))
    .orderBy(asc(projectMembers.createdAt));
  return rows.map((r) => ({ ...r, role: asRole(r.role) }));
}

/** The projects a user belongs to, oldest membership first. */
export async function listMemberships(db: Executor, userId: string): Promise<Membership[]> {
  const rows = await db
    .select({ projectId: projects.id, projectName: projects.name, role: projectMembers.role })
    .from(projectMembers)
    .innerJoin(projects, eq(projects.id, projectMembers.projectId))
    .where(eq(projectMembers.userId, userId))
    .orderBy(asc(projectMembers.createdAt), asc(projects.id));
  return rows.map((r) => ({ ...r, role: asRole(r.role) }));
}

/** Changes a member's role. A project always keeps at least one owner. */
export async function setMemberRole(db: Database, projectId: string, userId: string, role: ProjectRole): Promise<void> {
  await db.transaction(async (tx) => {
    const current = await lockMember(tx, projectId, userId);
    if (current === "owner" && role !== "owner") await assertAnotherOwner(tx, projectId, userId, "demote");
    if (current !== role) {
      await recordAudit(tx, {
        projectId,
        action: "member.role_changed",
        targetType: "member",
        targetId: userId,
        before: { role: current },
        after: { role },
      });
    }
    await tx
      .update(projectMembers)
      .set({ role })
      .where(and(eq(projectMembers.projectId, projectId), eq(projectMembers.userId, userId)));
    await announcePrincipalChange(tx);
  });
  principalCacheFor(db).forgetMember(projectId, userId);
}

/** Removes a member; their API keys for the project stop working. The last owner cannot leave. */
export async function removeMember(db: Database, projectId: string, userId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const current = await lockMember(tx, projectId, userId);
    if (current === "owner") await assertAnotherOwner(tx, projectId, userId, "remove");
    await recordAudit(tx, {
      projectId,
      action: "member.removed",
      targetType: "member",
      targetId: userId,
      before: { role: current },
    });
    await tx
      .delete(projectMembers)
      .where(and(eq(projectMembers.projectId, projectId), eq(projectMembers.userId, userId)));
    await announcePrincipalChange(tx);
  });
  principalCacheFor(db).forgetMember(projectId, userId);
}

async function lockMember(tx: Executor, projectId: string, userId: string): Promise<ProjectRole> {
  // Locks every owner row too, so two owners demoting each other at once cannot both succeed.
  const rows = await tx
    .select({ userId: projectMembers.userId, role: projectMembers.role })
    .from(projectMembers)
    .where(
      and(
        eq(projectMembers.projectId, projectId),
        sql`(${projectMembers.userId} = ${userId} or ${projectMembers.role} = 'owner')`,
      ),
    )
    .for("update");
  const row = rows.find((r) => r.userId === userId);
  if (!row) throw new NotFoundError(`User ${userId} is not a member of this project`, "member_not_found");
  return asRole(row.role);
}

async function assertAnotherOwner(tx: Executor, projectId: string, userId: string, verb: string): Promise<void> {
  const owners = await tx
    .select({ userId: projectMembers.userId })
    .from(projectMembers)
    .where(and(eq(projectMembers.projectId, projectId), eq(projectMembers.role, "owner")));
  if (!owners.some((o) => o.userId !== userId)) {
    throw new BadRequestError(
      `Cannot ${verb} the last owner of the project; make another member an owner first`,
      "last_owner",
    );
  }
}

function asRole(value: string): ProjectRole {
  return isProjectRole(value) ? value : "viewer";
}
