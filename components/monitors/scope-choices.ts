"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc";

export interface ScopeChoice {
  /** What the monitor stores and runs carry: an agent's or key's id, an environment's slug, a model. */
  value: string;
  label: string;
}

/**
 * What a monitor's scope can name, by name: the project's agents, environments, deployed
 * revisions, API keys and the catalog's models. Only the kind chosen is fetched.
 */
export function useScopeChoices(kind: string): ScopeChoice[] {
  const trpc = useTRPC();
  const agents = useQuery({ ...trpc.agents.list.queryOptions({ limit: 200 }), enabled: kind === "agent" });
  const environments = useQuery({ ...trpc.environments.list.queryOptions(), enabled: kind === "environment" });
  const overview = useQuery({ ...trpc.environments.overview.queryOptions(), enabled: kind === "revision" });
  const keys = useQuery({ ...trpc.apiKeys.list.queryOptions(), enabled: kind === "api_key" });
  const harnesses = useQuery({
    ...trpc.catalog.harnesses.queryOptions(),
    enabled: kind === "model",
    staleTime: Infinity,
  });
  switch (kind) {
    case "agent":
      return (agents.data?.items ?? []).map((a) => ({ value: a.agent.id, label: a.agent.name || a.agent.slug }));
    case "environment":
      return (environments.data ?? []).map((e) => ({ value: e.slug, label: e.name || e.slug }));
    case "revision": {
      const seen = new Map<string, string>();
      for (const env of overview.data ?? [])
        for (const d of env.deployments)
          if (d.kind === "workflow")
            seen.set(d.revision.id, `${d.artifact.name || d.artifact.slug} v${d.revision.version} (in ${env.slug})`);
      return [...seen].map(([value, label]) => ({ value, label }));
    }
    case "api_key":
      return (keys.data ?? []).map((k) => ({ value: k.id, label: `${k.name ?? "key"} (${k.prefix}…)` }));
    case "model": {
      const models = new Map<string, string>();
      for (const harness of harnesses.data ?? [])
        for (const provider of harness.providers)
          for (const model of provider.models) models.set(model.id, `${model.id} (${provider.provider})`);
      return [...models].map(([value, label]) => ({ value, label })).sort((a, b) => a.value.localeCompare(b.value));
    }
    default:
      return [];
  }
}
