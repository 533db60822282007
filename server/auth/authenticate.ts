import { and, eq } from "drizzle-orm";
import { DEFAULT_CACHE_TTL_WITHOUT_LISTEN_MS } from "@/server/core/config";
import { UnauthorizedError } from "@/server/core/errors";
import { credentialCheckFailure, type Executor } from "@/server/db";
import { apiKeys, projectMembers } from "@/server/db/schema";
import { hashKey, looksLikeKey } from "./key-material";
import type { Principal } from "@/server/core/principal";
import { principalCacheFor } from "./principal-cache";
import { isProjectRole } from "@/server/core/roles";
import { isKeyScope } from "@/server/core/key-scopes";

// last_used_at is refreshed at most this often, so reads do not become a write per request.
const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * Resolves `Authorization: ApiKey <key>` to the key's project and user, with the user's current
 * role there, or throws 401. A key whose user has left the project stops working. A header seen
 * before is answered from the process's key cache by its text, before any parsing or hashing.
 * `ttlWithoutListenMs` bounds how long that cache serves a key where it cannot listen for
 * revocations (CACHE_TTL_WITHOUT_LISTEN_MS). A lookup the database fails is a 503 saying why,
 * never "unknown key" (`credentialCheckFailure`).
 */
export async function authenticateApiKey(
  db: Executor,
  header: string | null,
  now: number = Date.now(),
  ttlWithoutListenMs = DEFAULT_CACHE_TTL_WITHOUT_LISTEN_MS,
): Promise<Principal> {
  const cache = principalCacheFor(db);
  const cached = header ? cache.get(header, now) : undefined;
  if (cached) {
    if (cached.keyExpiresAt !== undefined && cached.keyExpiresAt <= now) throw expired(cached.keyExpiresAt);
    return cached;
  }
  if (!header) {
    throw new UnauthorizedError(
      "Missing Authorization header; send `Authorization: ApiKey <key>`",
      "missing_credentials",
    );
  }
  const match = /^ApiKey\s+(\S+)\s*$/.exec(header.trim());
  if (!match) {
    throw new UnauthorizedError(
      "Malformed Authorization header; expected `Authorization: ApiKey <key>`",
      "malformed_credentials",
    );
  }
  const secret = match[1];
  if (!looksLikeKey(secret)) {
    throw new UnauthorizedError("Malformed API key; keys start with `sk_`", "malformed_credentials");
  }
  const hash = hashKey(secret);
  const ticket = cache.ticket();
  const key = await findKey(db, hash).catch((error: unknown) => {
    throw credentialCheckFailure(error, "The API key");
  });
  if (!key) throw new UnauthorizedError("Unknown API key", "invalid_api_key");
  if (key.revokedAt) {
    throw new UnauthorizedError(`API key was revoked at ${key.revokedAt.toISOString()}`, "revoked_api_key");
  }
  if (key.expiresAt && key.expiresAt.getTime() <= now) throw expired(key.expiresAt.getTime());
  if (!key.role || !isProjectRole(key.role)) {
    throw new UnauthorizedError(
      "The user who made this API key is no longer a member of its project",
      "member_removed",
    );
  }
  if (!key.lastUsedAt || now - key.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    await db
      .update(apiKeys)
      .set({ lastUsedAt: new Date(now) })
      .where(eq(apiKeys.id, key.id))
      .catch((error: unknown) => {
        throw credentialCheckFailure(error, "The API key");
      });
  }
  const principal: Principal = {
    projectId: key.projectId,
    userId: key.userId,
    role: key.role,
    apiKeyId: key.id,
    keyScopes: key.scopes.filter(isKeyScope),
    keyExpiresAt: key.expiresAt?.getTime(),
  };
  cache.set(header, principal, now, ticket, ttlWithoutListenMs);
  return principal;
}

/** The key with this hash and its user's role in the key's project (none once they left it). */
async function findKey(db: Executor, hash: string) {
  const [key] = await db
    .select({
      id: apiKeys.id,
      projectId: apiKeys.projectId,
      userId: apiKeys.userId,
      lastUsedAt: apiKeys.lastUsedAt,
      revokedAt: apiKeys.revokedAt,
      scopes: apiKeys.scopes,
      expiresAt: apiKeys.expiresAt,
      role: projectMembers.role,
    })
    .from(apiKeys)
    .leftJoin(
      projectMembers,
      and(eq(projectMembers.projectId, apiKeys.projectId), eq(projectMembers.userId, apiKeys.userId)),
    )
    .where(eq(apiKeys.hash, hash));
  return key;
}

function expired(at: number): UnauthorizedError {
  return new UnauthorizedError(
    `API key expired at ${new Date(at).toISOString()}; create a new key in Settings > API keys`,
    "expired_api_key",
  );
}
