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
}
