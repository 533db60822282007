import { ForbiddenError } from "@/server/core/errors";

/** What a member of a project may do: viewers read, members also change things, owners also manage people. */
export const PROJECT_ROLES = ["owner", "member", "viewer"] as const;
export type ProjectRole = (typeof PROJECT_ROLES)[number];

const RANK: Record<ProjectRole, number> = { viewer: 0, member: 1, owner: 2 };

export function isProjectRole(value: string): value is ProjectRole {
  return (PROJECT_ROLES as readonly string[]).includes(value);
}

export function hasRole(actual: ProjectRole, required: ProjectRole): boolean {
  return RANK[actual] >= RANK[required];
}

/** Throws 403 `insufficient_role`, saying which role the action needs. */
export function requireRole(actual: ProjectRole, required: ProjectRole, action = "This action"): void {
  if (hasRole(actual, required)) return;
  const needed = required === "owner" ? "an owner" : "a member or an owner";
  throw new ForbiddenError(`${action} needs ${needed} of the project; your role is ${actual}`, "insufficient_role");
}
