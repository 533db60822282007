"use client";

import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { useAgentDeployments } from "@/components/deploy/use-agent-deployments";
import { useTRPC } from "@/components/trpc";
import type { ChatTarget } from "./chat-target";

export interface TargetOption {
  value: string;
  label: string;
  target: ChatTarget;
}

/** How many of the variant's newest revisions are offered besides the latest. */
const RECENT_REVISIONS = 20;

/**
 * What a chat on the chat page can run: the variant's latest revision, one revision (a link from
 * History or a trace), the recent revisions, and what each environment runs now.
 */
export function useChatTargets(agentId: string, variantId: string, revisionId?: string): TargetOption[] {
  const trpc = useTRPC();
  const { environments } = useAgentDeployments(agentId);
  const revision = useQuery({
    ...trpc.agents.revision.queryOptions({ id: revisionId ?? "" }),
    enabled: Boolean(revisionId),
  });
  const history = useQuery(trpc.agents.history.queryOptions({ variantId, limit: RECENT_REVISIONS }));
  return useMemo(() => {
    const out: TargetOption[] = [
      { value: "latest", label: "Latest revision of this variant", target: { kind: "variant", variantId } },
    ];
    if (revisionId) {
      const version = revision.data?.version;
      out.unshift({
        value: `revision:${revisionId}`,
        label: version ? `Revision v${version}` : "The chosen revision",
        target: { kind: "revision", revisionId },
      });
    }
    for (const item of history.data?.items ?? []) {
      if (item.id === revisionId) continue;
      out.push({
        value: `revision:${item.id}`,
        label: `Revision v${item.version}${item.message ? `: ${item.message.slice(0, 48)}` : ""}`,
        target: { kind: "revision", revisionId: item.id },
      });
    }
    for (const { environment, deployment } of environments) {
      if (!deployment) continue;
      out.push({
        value: `environment:${environment.slug}`,
        label: `${environment.name ?? environment.slug}: what it runs now (v${deployment.revision.version})`,
        target: { kind: "environment", environmentSlug: environment.slug, key: deployment.key },
      });
    }
    return out;
  }, [environments, history.data?.items, revision.data?.version, revisionId, variantId]);
}
