import type { Page, Windowing } from "@/server/core/windowing";
import type { Executor } from "@/server/db";
import { deploymentsOf, listEnvironmentStates, type DeployedRevision } from "@/server/domains/environments/overview";
import { hasRevisionData, queryArtifactsWithHeads, type ArtifactRecord, type Scope } from "@/server/versioning";
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
const isAgent = hasRevisionData("parameters", "agent");

export async function listAgents(db: Executor, scope: Scope, query: AgentListQuery = {}): Promise<Page<AgentSummary>> {
  const page = await queryArtifactsWithHeads(db, scope, workflowsSpec, {
    filter: { name: query.search },
    includeArchived: query.includeArchived,
    windowing: query.windowing,
    where: isAgent,
  });
  if (page.items.length === 0) return { items: [], next: page.next };
  const states = await listEnvironmentStates(db, scope);
  return {
    next: page.next,
    items: page.items.map(({ artifact, defaultVariantId, latest }) => ({
      artifact,
      defaultVariantId,
      latest: latest && {
        revisionId: latest.revisionId,
        version: latest.version,
        message: latest.message,
        date: latest.date,
        authorId: latest.authorId,
      },
      deployments: deploymentsOf(states, "workflow", artifact.id),
    })),
  };
}
