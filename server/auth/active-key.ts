import { and, eq, isNull } from "drizzle-orm";
import type { Executor } from "@/server/db";
import { apiKeys } from "@/server/db/schema";

/** Whether `keyId` names an API key of the project that is not revoked (other areas may not read `api_keys`). */
export async function isActiveApiKey(db: Executor, projectId: string, keyId: string): Promise<boolean> {
  const rows = await db
    .select({ id: apiKeys.id })
    .from(apiKeys)
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.projectId, projectId), isNull(apiKeys.revokedAt)));
  return rows.length > 0;
}
