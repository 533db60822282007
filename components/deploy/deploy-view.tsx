"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useMemo, useState } from "react";
import { RevisionPicker } from "@/components/diff/revision-picker";
import { buttonClass, QueryError, QueryView, Skeleton, TimeAgo } from "@/components/ui";
import { agentPaths } from "@/components/history/paths";
import { SectionHeader } from "@/components/history/section-header";
import { TabContainer } from "@/components/history/tab-container";
import { useVariantLabels } from "@/components/agents/use-variant-labels";
import { variantIdOf, variantSlugOf, versionLabel, type AgentRevision } from "@/components/history/types";
import { useVariantHistory } from "@/components/history/use-variant-history";
import { useTRPC } from "@/components/trpc";
import { DeployDialog } from "./deploy-dialog";
import { EnvironmentDeployCard } from "./environment-deploy-card";
import { useAgentDeployments, type AgentEnvironment } from "./use-agent-deployments";

/** An agent's Deploy tab: pick a revision (`?revision=`, latest by default), see each environment, deploy with a diff. */
export function DeployView({
  agentId,
  variantId,
  revisionId,
}: {
  agentId: string;
  variantId: string;
  revisionId?: string;
}) {
  const trpc = useTRPC();
  const router = useRouter();
  const { query: history, revisions } = useVariantHistory(variantId);
  const { query: overview, environments } = useAgentDeployments(agentId);
  const variantName = useVariantLabels(agentId);
  const listed = revisionId ? revisions.find((r) => r.id === revisionId) : revisions[0];
  // A revision from an older page or another variant, named in the URL.
  const extra = useQuery({
    ...trpc.agents.revision.queryOptions({ id: revisionId ?? "" }),
    enabled: Boolean(revisionId) && !history.isPending && !listed,
  });
  const selected: AgentRevision | undefined = listed ?? extra.data;
  const [target, setTarget] = useState<AgentEnvironment | null>(null);

  const options = useMemo(() => {
    const list = revisions.map((r) => ({ id: r.id, version: r.version, message: r.message }));
    if (extra.data && !list.some((o) => o.id === extra.data.id))
      list.push({ id: extra.data.id, version: extra.data.version, message: extra.data.message });
    return list;
  }, [revisions, extra.data]);

  return (
    <TabContainer>
      <SectionHeader
        title="Deploy"
        description="Choose a revision, then the environment that should run it. Every deploy shows what changes before you confirm, and is recorded in the environment's history."
        actions={
          <Link href="/environments" className={buttonClass({ variant: "ghost" })}>
            All environments
          </Link>
        }
      />

      <div className="flex flex-wrap items-end gap-4 rounded-xl border border-line bg-surface px-4 py-3 shadow-xs">
        {history.isPending ? (
          <Skeleton className="h-12 w-96" />
        ) : history.isError ? (
          <QueryError title="Could not load the revisions" error={history.error} onRetry={() => history.refetch()} />
        ) : (
          <>
            <RevisionPicker
              className="w-96"
              label="Revision to deploy"
              value={selected?.id}
              options={options}
              onChange={(id) => router.replace(agentPaths.deploy(agentId, variantId, id), { scroll: false })}
            />
            {selected && (
              <p
                className="flex min-w-0 flex-1 flex-wrap items-center gap-x-2 pb-1.5 text-xs text-muted"
                data-testid="selected-revision"
              >
                <span className="font-mono font-semibold text-foreground">{versionLabel(selected)}</span>
                {variantSlugOf(selected) && <span>{variantName(variantIdOf(selected), variantSlugOf(selected))}</span>}
                <span aria-hidden="true">·</span>
                committed <TimeAgo iso={selected.date} />
                {selected.id === revisions[0]?.id && (
                  <span className="rounded bg-surface-muted px-1.5 py-0.5 font-medium">latest</span>
                )}
                <Link
                  href={agentPaths.revision(agentId, variantId, selected.id)}
                  className="text-accent hover:underline"
                >
                  View
                </Link>
              </p>
            )}
          </>
        )}
      </div>
      {extra.isError && <QueryError title="Could not load the revision named in the link" error={extra.error} />}

      <QueryView
        query={overview}
        pending={
          <div className="grid gap-4 lg:grid-cols-3" role="status" aria-label="Loading environments">
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} className="h-72 w-full rounded-xl" />
            ))}
          </div>
        }
        errorTitle="Could not load the environments"
      >
        {() => (
          <div className="grid gap-4 lg:grid-cols-3">
            {environments.map((env) => (
              <EnvironmentDeployCard
                key={env.environment.id}
                agentId={agentId}
                target={env}
                selected={selected}
                onDeploy={() => setTarget(env)}
              />
            ))}
          </div>
        )}
      </QueryView>

      <DeployDialog revision={target ? (selected ?? null) : null} target={target} onClose={() => setTarget(null)} />
    </TabContainer>
  );
}
