import type { Membership, ProjectRole, SessionUser } from "@/server/auth";

/** What the shell knows of the signed-in visitor, from the server layout. */
export interface ShellAccount {
  user: SessionUser;
  projects: Membership[];
  current: { projectId: string; role: ProjectRole } | null;
}
