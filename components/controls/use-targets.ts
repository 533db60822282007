"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc";

export interface Target {
  id: string;
  label: string;
}

/** The project's active API keys and its agents, for the controls' target pickers, and a label for any id. */
export function useTargets() {
  const trpc = useTRPC();
  const keys = useQuery(trpc.apiKeys.list.queryOptions());
  const agents = useQuery(trpc.agents.list.queryOptions({ limit: 200 }));
  const apiKeys: Target[] = (keys.data ?? [])
    .filter((key) => !key.revoked_at)
    .map((key) => ({ id: key.id, label: `${key.name ?? "key"} (${key.prefix}…)` }));
  const agentList: Target[] = (agents.data?.items ?? []).map((a) => ({
    id: a.agent.id,
    label: a.agent.name || a.agent.slug,
  }));
  const labelOf = (scope: string, id: string | undefined) => {
    if (!id) return scope === "project" ? "The project" : scope === "agent" ? "Each agent" : "Each API key";
    const found = [...apiKeys, ...agentList].find((target) => target.id === id);
    return `${scope === "agent" ? "Agent" : "API key"} ${found?.label ?? id}`;
  };
  return { apiKeys, agents: agentList, labelOf };
}
