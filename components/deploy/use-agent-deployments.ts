"use client";

import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { compareEnvironments } from "@/components/environments/environment-badge";
import type { Deployment, EnvironmentOverview } from "@/components/environments/types";
import { useTRPC } from "@/components/trpc";

export interface AgentEnvironment {
  environment: EnvironmentOverview;
  /** What this environment runs for the agent; absent when the agent was never deployed there. */
  deployment?: Deployment;
}

/** Every environment with what it runs for one agent, and which environments run each revision. */
export function useAgentDeployments(agentId: string) {
  const trpc = useTRPC();
  const overview = useQuery(trpc.environments.overview.queryOptions());
  const value = useMemo(() => {
    const environments: AgentEnvironment[] = [...(overview.data ?? [])]
      .sort(compareEnvironments)
      .map((environment) => ({
        environment,
        deployment: environment.deployments.find((d) => d.artifact.id === agentId),
      }));
    const byRevision = new Map<string, string[]>();
    for (const { environment, deployment } of environments) {
      if (!deployment) continue;
      byRevision.set(deployment.revision.id, [...(byRevision.get(deployment.revision.id) ?? []), environment.slug]);
    }
    return { environments, byRevision };
  }, [overview.data, agentId]);
  return { query: overview, ...value };
}
