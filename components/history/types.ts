import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/trpc/root";

type Outputs = inferRouterOutputs<AppRouter>;

/** A revision of an agent's variant as the playground receives it (with its payload). */
export type AgentRevision = Outputs["agents"]["history"]["items"][number];
export type AgentVariant = Outputs["agents"]["get"]["variants"][number];

/** The agent template a workflow revision carries, at `data.parameters.agent`. */
export function templateOf(revision: { data?: unknown } | undefined): unknown {
  const data = revision?.data as { parameters?: { agent?: unknown } } | undefined;
  return data?.parameters?.agent;
}

export const versionLabel = (revision: { version: string }) => `v${revision.version}`;

/** The variant slug a workflow revision belongs to (the wire names it `workflow_variant_slug`). */
export function variantSlugOf(revision: object): string | undefined {
  return (revision as { workflow_variant_slug?: string }).workflow_variant_slug;
}

export function variantIdOf(revision: object): string | undefined {
  return (revision as { workflow_variant_id?: string }).workflow_variant_id;
}
