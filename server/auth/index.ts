export { createAccount, ensureDefaultAccount, findDefaultPrincipal, type Account, type UserRecord } from "./accounts";
export { createApiKey, listApiKeys, revokeApiKey, type ApiKeyRecord } from "./api-keys";
export { authFor } from "./auth-instance";
export { authenticateApiKey } from "./authenticate";
export {
  createInvite,
  listInvites,
  previewInvite,
  revokeInvite,
  type InvitePreview,
  type InviteRecord,
} from "./invites";
export {
  findProjectMembers,
  listMemberships,
  listProjectMembers,
  removeMember,
  setMemberRole,
  type Member,
  type Membership,
  type ProjectMember,
} from "./members";
export { createProject, getProject, type ProjectRecord } from "./projects";
export type { Principal } from "@/server/core/principal";
export { hasRole, isProjectRole, PROJECT_ROLES, requireRole, type ProjectRole } from "@/server/core/roles";
export { resolveSession, selectProject, type PlaygroundSession, type SessionUser } from "./session";
export { acceptInvite, createOwnerAccount, credentialsSchema, ownerExists, signUp, type Credentials } from "./sign-up";
export { apiKeyToWire, createApiKeyInput } from "./wire";
export { projectExistsLocked, projectExistsLockedSql } from "./project-lock";
export { isActiveApiKey } from "./active-key";
export { memberRole } from "./member-role";
