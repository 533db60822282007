import type { Executor } from "@/server/db";
import {
  queryArtifacts,
  queryRevisions,
  type ArtifactRecord,
  type DomainSpec,
  type RevisionRecord,
  type Scope,
} from "@/server/versioning";

export interface ArtifactWithRevisions {
  artifact: ArtifactRecord;
  /** Newest first, at most `perArtifact`. */
  revisions: RevisionRecord[];
}

/**
 * The newest artifacts of a domain, each with its newest revisions (every variant): what a picker
 * of "which evaluator / which testset revision" lists. Two queries, whatever the count.
 */
export async function artifactsWithRevisions(
  db: Executor,
  scope: Scope,
  spec: DomainSpec,
  options: { limit?: number; perArtifact?: number } = {},
): Promise<ArtifactWithRevisions[]> {
  const artifacts = await queryArtifacts(db, scope, spec, { windowing: { limit: options.limit ?? 200 } });
  if (artifacts.items.length === 0) return [];
  const perArtifact = options.perArtifact ?? 20;
  const revisions = await queryRevisions(db, scope, spec, {
    artifactRefs: artifacts.items.map((a) => ({ id: a.id })),
    windowing: { limit: Math.min(1000, artifacts.items.length * perArtifact) },
  });
  return artifacts.items.map((artifact) => ({
    artifact,
    revisions: revisions.items.filter((r) => r.artifactId === artifact.id).slice(0, perArtifact),
  }));
}
