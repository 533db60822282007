import { and, desc, eq } from "drizzle-orm";
import { BadRequestError, NotFoundError } from "@/server/core/errors";
import { isKeyScope, KEY_SCOPES, type KeyScope } from "@/server/core/key-scopes";
import { newId } from "@/server/core/ids";
import type { Database, Executor } from "@/server/db";
import { apiKeys } from "@/server/db/schema";
import { generateKeyMaterial } from "./key-material";
import { announcePrincipalChange, principalCacheFor } from "./principal-cache";
import { recordAudit } from "@/server/audit";

export interface ApiKeyRecord {
  id: string;
  name: string | null;
  prefix: string;
  userId: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  scopes: KeyScope[];
  expiresAt: Date | null;
}

const columns = {
  id: apiKeys.id,
  name: apiKeys.name,
  prefix: apiKeys.prefix,
  userId: apiKeys.userId,
  createdAt: apiKeys.createdAt,
  lastUsedAt: apiKeys.lastUsedAt,
  revokedAt: apiKeys.revokedAt,
  scopes: apiKeys.scopes,
  expiresAt: apiKeys.expiresAt,
};

/** Returns the record and the secret; the secret is not recoverable afterwards. */
export async function createApiKey(
  db: Executor,
  input: {
    projectId: string;
    userId: string;
    name?: string | null;
    /** Default `["full"]`. */
    scopes?: readonly KeyScope[];
    expiresAt?: Date | null;
    /** Now, to refuse an expiry in the past. */
    now?: Date;
  },
): Promise<{ apiKey: ApiKeyRecord; secret: string }> {
  const scopes = normaliseScopes(input.scopes ?? ["full"]);
  if (input.expiresAt && input.expiresAt.getTime() <= (input.now ?? new Date()).getTime()) {
    throw new BadRequestError(
      `expires_at ${input.expiresAt.toISOString()} is not in the future; give a later time or none`,
      "invalid_expiry",
    );
  }
  const material = generateKeyMaterial();
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(apiKeys)
      .values({
        id: newId(),
        projectId: input.projectId,
        userId: input.userId,
        name: input.name ?? null,
        prefix: material.prefix,
        hash: material.hash,
        scopes,
        expiresAt: input.expiresAt ?? null,
      })
      .returning(columns);
    const apiKey = toRecord(row);
    await recordAudit(tx, {
      projectId: input.projectId,
      action: "api_key.created",
      targetType: "api_key",
      targetId: apiKey.id,
      after: auditView(apiKey),
    });
    return { apiKey, secret: material.secret };
  });
}

export async function listApiKeys(db: Executor, projectId: string): Promise<ApiKeyRecord[]> {
  const rows = await db
    .select(columns)
    .from(apiKeys)
    .where(eq(apiKeys.projectId, projectId))
    .orderBy(desc(apiKeys.createdAt));
  return rows.map(toRecord);
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
    if (existing.revokedAt) return toRecord(existing);
    const [revoked] = await tx
      .update(apiKeys)
      .set({ revokedAt: new Date() })
      .where(and(eq(apiKeys.projectId, projectId), eq(apiKeys.id, id)))
      .returning(columns);
    await announcePrincipalChange(tx);
    await recordAudit(tx, {
      projectId,
      action: "api_key.revoked",
      targetType: "api_key",
      targetId: id,
      before: auditView(toRecord(existing)),
      after: auditView(toRecord(revoked)),
    });
    return toRecord(revoked);
  });
  principalCacheFor(db).forgetKey(id);
  return row;
}

function toRecord(row: Omit<ApiKeyRecord, "scopes"> & { scopes: string[] }): ApiKeyRecord {
  return { ...row, scopes: row.scopes.filter(isKeyScope) };
}

/** One of each, in the canonical order; `full` alone when given, since it includes the rest. */
function normaliseScopes(scopes: readonly KeyScope[]): KeyScope[] {
  if (scopes.length === 0)
    throw new BadRequestError("Give at least one scope: read, run, ingest or full", "invalid_scopes");
  if (scopes.includes("full")) return ["full"];
  return KEY_SCOPES.filter((s) => scopes.includes(s));
}

/** What the audit log keeps of a key: never its hash or secret. */
function auditView(key: ApiKeyRecord) {
  return {
    name: key.name,
    prefix: key.prefix,
    user_id: key.userId,
    scopes: key.scopes,
    expires_at: key.expiresAt,
    revoked_at: key.revokedAt,
  };
}
