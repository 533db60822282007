import { eq } from "drizzle-orm";
import { NotFoundError } from "@/server/core/errors";
import { credentialCheckFailure } from "@/server/db";
import { sessions } from "@/server/db/schema";
import type { AppContext } from "@/server/core/app-context";
import { authFor } from "./auth-instance";
import { listMemberships, type Membership } from "./members";
import type { Principal } from "@/server/core/principal";

export interface SessionUser {
  id: string;
  email: string;
  name: string | null;
}

/** A signed-in playground visitor: who they are, their projects, and the one they act in. */
export interface PlaygroundSession {
  sessionId: string;
  user: SessionUser;
  memberships: Membership[];
  /** Null when the user belongs to no project (all memberships removed). */
  principal: Principal | null;
}

/**
 * Reads the session cookie. The project is the session's selected one when the user is still a
 * member there, else their first project: never a project the client names. A lookup the
 * database fails is a 503 saying why, never "not signed in".
 */
export async function resolveSession(app: AppContext, headers: Headers): Promise<PlaygroundSession | null> {
  const failed = (error: unknown): never => {
    throw credentialCheckFailure(error, "The session");
  };
  const auth = await authFor(app).catch(failed);
  const found = await auth.api.getSession({ headers }).catch(failed);
  if (!found) return null;
  const memberships = await listMemberships(app.db, found.user.id).catch(failed);
  const selected = (found.session as { activeProjectId?: string | null }).activeProjectId;
  const active = memberships.find((m) => m.projectId === selected) ?? memberships[0];
  return {
    sessionId: found.session.id,
    user: { id: found.user.id, email: found.user.email, name: found.user.name ?? null },
    memberships,
    principal: active ? { projectId: active.projectId, userId: found.user.id, role: active.role } : null,
  };
}

/** The project switcher: only projects the user is a member of. */
export async function selectProject(
  app: AppContext,
  session: PlaygroundSession,
  projectId: string,
): Promise<Membership> {
  const membership = session.memberships.find((m) => m.projectId === projectId);
  if (!membership) throw new NotFoundError(`You are not a member of project ${projectId}`, "project_not_found");
  await app.db
    .update(sessions)
    .set({ activeProjectId: projectId, updatedAt: new Date() })
    .where(eq(sessions.id, session.sessionId));
  return membership;
}
