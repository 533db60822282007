import { and, desc, eq } from "drizzle-orm";
import { NotFoundError } from "@/server/core/errors";
import { newId } from "@/server/core/ids";
import type { Database, Executor } from "@/server/db";
import { apiKeys } from "@/server/db/schema";
import { generateKeyMaterial } from "./key-material";
import { announcePrincipalChange, principalCacheFor } from "./principal-cache";

export interface ApiKeyRecord {
  id: string;
  name: string | null;
  prefix: string;
  userId: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

const columns = {
  id: apiKeys.id,
  name: apiKeys.name,
  prefix: apiKeys.prefix,
  userId: apiKeys.userId,
  createdAt: apiKeys.createdAt,
  lastUsedAt: apiKeys.lastUsedAt,
  revokedAt: apiKeys.revokedAt,
};

/** Returns the record and the secret; the secret is not recoverable afterwards. */
export async function createApiKey(
  db: Executor,
  input: { projectId: string; userId: string; name?: string | null },
): Promise<{ apiKey: ApiKeyRecord; secret: string }> {
  const material = generateKeyMaterial();
  const [row] = await db
    .insert(apiKeys)
    .values({
      id: newId(),
      projectId: input.projectId,
      userId: input.userId,
      name: input.name ?? null,
      prefix: material.prefix,
      hash: material.hash,
    })
    .returning(columns);
  return { apiKey: row, secret: material.secret };
}

export async function listApiKeys(db: Executor, projectId: string): Promise<ApiKeyRecord[]> {
  return db.select(columns).from(apiKeys).where(eq(apiKeys.projectId, projectId)).orderBy(desc(apiKeys.createdAt));
}

/**
 * Idempotent: revoking a revoked key keeps its first revocation time. The revocation and its
 * announcement to every process's key cache commit together; this process forgets the key
 * before answering.
 */
export async function revokeApiKey(db: Database, projectId: string, id: string): Promise<ApiKeyRecord> {
  const row = await db.transaction(async (tx) => {
    const [existing] = await tx
      .select(columns)
      .from(apiKeys)
      .where(and(eq(apiKeys.projectId, projectId), eq(apiKeys.id, id)));
    if (!existing) throw new NotFoundError(`API key ${id} not found in this project`);
    if (existing.revokedAt) return existing;
    const [revoked] = await tx
      .update(apiKeys)
      .set({ revokedAt: new Date() })
      .where(and(eq(apiKeys.projectId, projectId), eq(apiKeys.id, id)))
      .returning(columns);
    await announcePrincipalChange(tx);
    return revoked;
  });
  principalCacheFor(db).forgetKey(id);
  return row;
}
