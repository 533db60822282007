import { isAppError } from "@/server/core/errors";
import type { Executor } from "@/server/db";
import type { DomainKeys } from "./domains";
import type { RetrieveRefs } from "./references";
import { resolveRevision, type Resolution } from "./resolve-revision";

/**
 * resolveRevision, and then, as the compat API reads embeds and environment entries: a revision
 * reference alone with a slug and a version that names no revision is an artifact slug and that
 * version of its default variant (`{"workflow_revision": {"slug": "my-tool", "version": "2"}}`).
 */
export async function resolveRevisionBySlugAndVersion(
  db: Executor,
  projectId: string,
  keys: DomainKeys,
  refs: RetrieveRefs,
): Promise<Resolution> {
  try {
    return await resolveRevision(db, projectId, keys, refs);
  } catch (error) {
    const { revision, artifact, variant } = refs;
    const asArtifact =
      isAppError(error) &&
      error.status === 404 &&
      revision?.slug &&
      revision.version &&
      !revision.id &&
      !artifact &&
      !variant;
    if (!asArtifact) throw error;
    return resolveRevision(db, projectId, keys, { artifact: { slug: revision.slug, version: revision.version } });
  }
}
