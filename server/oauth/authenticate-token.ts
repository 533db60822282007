import { and, eq, isNull } from "drizzle-orm";
import type { Principal } from "@/server/auth";
import { isProjectRole, memberRole } from "@/server/auth";
import { UnauthorizedError } from "@/server/core/errors";
import { isKeyScope } from "@/server/core/key-scopes";
import { credentialCheckFailure, type Executor } from "@/server/db";
import { oauthTokens } from "@/server/db/schema";
import { hashSecret } from "./token-material";

/**
 * An OAuth access token to the principal it acts as: its project, its user with their role there
 * now, and the scopes the user granted (as an API key's). Revoked, expired or unknown: 401.
 */
export async function authenticateOAuthToken(db: Executor, token: string, now: Date): Promise<Principal> {
  const [row] = await db
    .select()
    .from(oauthTokens)
    .where(and(eq(oauthTokens.accessHash, hashSecret(token)), isNull(oauthTokens.revokedAt)))
    .catch((error: unknown) => {
      throw credentialCheckFailure(error, "The access token");
    });
  if (!row) throw new UnauthorizedError("Unknown or revoked access token", "invalid_api_key");
  if (row.expiresAt <= now)
    throw new UnauthorizedError(
      `The access token expired at ${row.expiresAt.toISOString()}; refresh it`,
      "expired_api_key",
    );
  const role = await memberRole(db, row.projectId, row.userId);
  if (!role || !isProjectRole(role))
    throw new UnauthorizedError(
      "The user who authorized this client is no longer a member of the project",
      "member_removed",
    );
  return { projectId: row.projectId, userId: row.userId, role, keyScopes: row.scopes.filter(isKeyScope) };
}
