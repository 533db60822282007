import type { KeyScope } from "@/server/core/key-scopes";
import type { ProjectRole } from "@/server/core/roles";

/**
 * Who is calling: resolved from an API key or a playground session, and the scope of every query
 * the request makes. `role` is the user's role in the project at the time of the call.
 */
export interface Principal {
  projectId: string;
  userId: string;
  role: ProjectRole;
  apiKeyId?: string;
  /** A key's scopes; a session has none (its role alone decides). */
  keyScopes?: readonly KeyScope[];
  /** A key's expiry in ms since the epoch, checked on every request (cached principals too). */
  keyExpiresAt?: number;
}
