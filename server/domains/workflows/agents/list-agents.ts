import { and, eq, inArray, sql } from "drizzle-orm";
import type { Page, Windowing } from "@/server/core/windowing";
import type { Executor } from "@/server/db";
import { artifacts, revisions, variants } from "@/server/db/schema";
import { deploymentsOf, listEnvironmentStates, type DeployedRevision } from "@/server/domains/environments/overview";
import { isDefaultVariant, queryArtifacts, type ArtifactRecord, type Scope } from "@/server/versioning";
import { workflowsSpec } from "../spec";

export interface AgentSummary {
  artifact: ArtifactRecord;
  defaultVariantId?: string;
  latest?: { revisionId: string; version: number; message: string | null; date: Date; authorId: string | null };
  deployments: DeployedRevision[];
}

export interface AgentListQuery {
  search?: string;
  includeArchived?: boolean;
  windowing?: Windowing;
}

/** An agent is a workflow one of whose revisions carries `data.parameters.agent`. */
const isAgent = sql`exists (select 1 from ${revisions} r where r.artifact_id = ${artifacts.id} and r.data -> 'parameters' -> 'agent' is not null)`;

export async function listAgents(db: Executor, scope: Scope, query: AgentListQuery = {}): Promise<Page<AgentSummary>> {
  const page = await queryArtifacts(db, scope, workflowsSpec, {
    filter: { name: query.search },
    includeArchived: query.includeArchived,
    windowing: query.windowing,
    where: isAgent,
  });
  if (page.items.length === 0) return { items: [], next: page.next };

  const ids = page.items.map((a) => a.id);
  const heads = await db
    .select({
      artifactId: variants.artifactId,
      variantId: variants.id,
      revisionId: revisions.id,
      version: revisions.version,
      message: revisions.message,
      date: revisions.createdAt,
      authorId: revisions.authorId,
    })
    .from(variants)
    .leftJoin(revisions, and(eq(revisions.variantId, variants.id), eq(revisions.version, variants.headVersion)))
    .where(and(inArray(variants.artifactId, ids), isDefaultVariant(variants.id, variants.artifactId)));
  const headByArtifact = new Map(heads.map((h) => [h.artifactId, h]));
  const states = await listEnvironmentStates(db, scope);

  return {
    next: page.next,
    items: page.items.map((artifact) => {
      const head = headByArtifact.get(artifact.id);
      return {
        artifact,
        defaultVariantId: head?.variantId,
        latest: head?.revisionId
          ? {
              revisionId: head.revisionId,
              version: head.version!,
              message: head.message,
              date: head.date!,
              authorId: head.authorId,
            }
          : undefined,
        deployments: deploymentsOf(states, "workflow", artifact.id),
      };
    }),
  };
}
