import { and, eq, inArray } from "drizzle-orm";
import type { Executor } from "@/server/db";
import { vaultSecrets } from "@/server/db/schema";

/** What names a stored secret and what it is for, read without opening its sealed data. */
export interface SecretHeader {
  slug: string;
  name: string;
  /** `provider_key`, `custom_provider` or `secret`. */
  kind: string;
  /** The provider id, `custom`, or null for a plain secret. */
  provider: string | null;
}

/**
 * The headers of the project's secrets with these slugs: enough for another area to check that a
 * slug names a model connection of the right provider (an alias entry), with no key opened.
 */
export async function secretHeaders(db: Executor, projectId: string, slugs: string[]): Promise<SecretHeader[]> {
  if (slugs.length === 0) return [];
  return db
    .select({
      slug: vaultSecrets.slug,
      name: vaultSecrets.name,
      kind: vaultSecrets.kind,
      provider: vaultSecrets.provider,
    })
    .from(vaultSecrets)
    .where(and(eq(vaultSecrets.projectId, projectId), inArray(vaultSecrets.slug, slugs)));
}
