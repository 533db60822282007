export { createAccount, ensureDefaultAccount, findDefaultPrincipal, type Account, type UserRecord } from "./accounts";
export { createApiKey, listApiKeys, revokeApiKey, type ApiKeyRecord } from "./api-keys";
export { authenticateApiKey } from "./authenticate";
export { createProject, getProject, onProjectCreated, type ProjectRecord } from "./projects";
export type { Principal } from "./principal";
