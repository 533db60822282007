import { randomBytes } from "node:crypto";
import { and, desc, eq, gt, isNull } from "drizzle-orm";
import { ConflictError, NotFoundError } from "@/server/core/errors";
import { newId } from "@/server/core/ids";
import type { Executor, Transaction } from "@/server/db";
import { projectInvites, projectMembers, projects } from "@/server/db/schema";
import { hashKey } from "./key-material";
import type { ProjectRole } from "@/server/core/roles";
import { recordAudit } from "@/server/audit";

export const INVITE_TTL_MS = 7 * 24 * 3600 * 1000;

export interface InviteRecord {
  id: string;
  role: ProjectRole;
  createdAt: Date;
  expiresAt: Date;
  acceptedAt: Date | null;
  revokedAt: Date | null;
}

/** What the invite page shows before someone accepts. */
export interface InvitePreview {
  projectName: string;
  role: ProjectRole;
  expiresAt: Date;
}

const columns = {
  id: projectInvites.id,
  role: projectInvites.role,
  createdAt: projectInvites.createdAt,
  expiresAt: projectInvites.expiresAt,
  acceptedAt: projectInvites.acceptedAt,
  revokedAt: projectInvites.revokedAt,
};

/** A single-use link token; only its hash is stored, so the link is shown once. */
export async function createInvite(
  db: Executor,
  input: { projectId: string; createdBy: string; role: ProjectRole; now?: Date },
): Promise<{ invite: InviteRecord; token: string }> {
  const token = `inv_${randomBytes(24).toString("base64url")}`;
  const now = input.now ?? new Date();
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(projectInvites)
      .values({
        id: newId(),
        projectId: input.projectId,
        role: input.role,
        tokenHash: hashKey(token),
        createdBy: input.createdBy,
        createdAt: now,
        expiresAt: new Date(now.getTime() + INVITE_TTL_MS),
      })
      .returning(columns);
    await recordAudit(tx, {
      projectId: input.projectId,
      action: "invite.created",
      targetType: "invite",
      targetId: row.id,
      after: { role: row.role, expires_at: row.expiresAt },
    });
    return { invite: row as InviteRecord, token };
  });
}

export async function listInvites(db: Executor, projectId: string): Promise<InviteRecord[]> {
  const rows = await db
    .select(columns)
    .from(projectInvites)
    .where(eq(projectInvites.projectId, projectId))
    .orderBy(desc(projectInvites.createdAt));
  return rows as InviteRecord[];
}

export async function revokeInvite(db: Executor, projectId: string, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const rows = await tx
      .update(projectInvites)
      .set({ revokedAt: new Date() })
      .where(
        and(
          eq(projectInvites.projectId, projectId),
          eq(projectInvites.id, id),
          isNull(projectInvites.acceptedAt),
          isNull(projectInvites.revokedAt),
        ),
      )
      .returning({ id: projectInvites.id, role: projectInvites.role });
    if (rows.length === 0) throw new NotFoundError(`No open invite ${id} in this project`, "invite_not_found");
    await recordAudit(tx, {
      projectId,
      action: "invite.revoked",
      targetType: "invite",
      targetId: id,
      before: { role: rows[0].role },
    });
  });
}

/** The project and role of a usable invite, or 404 saying why it cannot be used. */
export async function previewInvite(db: Executor, token: string, now = new Date()): Promise<InvitePreview> {
  const [row] = await db
    .select({
      projectName: projects.name,
      role: projectInvites.role,
      expiresAt: projectInvites.expiresAt,
      acceptedAt: projectInvites.acceptedAt,
      revokedAt: projectInvites.revokedAt,
    })
    .from(projectInvites)
    .innerJoin(projects, eq(projects.id, projectInvites.projectId))
    .where(eq(projectInvites.tokenHash, hashKey(token)));
  if (!row)
    throw new NotFoundError("This invite link is not valid; ask the project owner for a new one", "invite_not_found");
  if (row.acceptedAt)
    throw new NotFoundError("This invite link was already used; ask the project owner for a new one", "invite_used");
  if (row.revokedAt)
    throw new NotFoundError("This invite link was revoked; ask the project owner for a new one", "invite_revoked");
  if (row.expiresAt <= now)
    throw new NotFoundError("This invite link has expired; ask the project owner for a new one", "invite_expired");
  return { projectName: row.projectName, role: row.role as ProjectRole, expiresAt: row.expiresAt };
}

/**
 * Uses the invite for `userId` and adds them to its project, in the caller's transaction. The
 * conditional update makes the link single-use even when two people click it at once.
 */
export async function consumeInvite(
  tx: Transaction,
  token: string,
  userId: string,
  now = new Date(),
): Promise<{ projectId: string; role: ProjectRole }> {
  const preview = await previewInvite(tx, token, now);
  const [used] = await tx
    .update(projectInvites)
    .set({ acceptedAt: now, acceptedBy: userId })
    .where(
      and(
        eq(projectInvites.tokenHash, hashKey(token)),
        isNull(projectInvites.acceptedAt),
        isNull(projectInvites.revokedAt),
        gt(projectInvites.expiresAt, now),
      ),
    )
    .returning({ projectId: projectInvites.projectId, role: projectInvites.role });
  if (!used)
    throw new NotFoundError("This invite link was already used; ask the project owner for a new one", "invite_used");
  const inserted = await tx
    .insert(projectMembers)
    .values({ projectId: used.projectId, userId, role: used.role })
    .onConflictDoNothing()
    .returning({ projectId: projectMembers.projectId });
  if (inserted.length === 0)
    throw new ConflictError(`You are already a member of ${preview.projectName}`, "already_member");
  await recordAudit(tx, {
    projectId: used.projectId,
    action: "member.joined",
    targetType: "member",
    targetId: userId,
    after: { role: used.role },
    actor: { userId },
  });
  return { projectId: used.projectId, role: used.role as ProjectRole };
}
