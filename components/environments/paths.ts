import { agentPaths } from "@/components/history/paths";
import type { DeployedEntry } from "./types";

export const environmentPath = (slug: string) => `/environments/${encodeURIComponent(slug)}`;

/** Agents are workflows: their revisions open in the agent pages; other kinds have no page yet. */
export function entryRevisionHref(entry: DeployedEntry): string | undefined {
  return entry.kind === "workflow"
    ? agentPaths.revision(entry.artifact.id, entry.variant.id, entry.revision.id)
    : undefined;
}

export function entryDiffHref(before: DeployedEntry, after: DeployedEntry): string | undefined {
  if (after.kind !== "workflow" || before.artifact.id !== after.artifact.id || before.revision.id === after.revision.id)
    return undefined;
  return agentPaths.diff(after.artifact.id, after.variant.id, before.revision.id, after.revision.id);
}

/** What a name is read from: a deployed entry, or a deployment of the overview. */
export interface Named {
  artifact: { name?: string | null; slug: string };
}

export const entryName = (entry: Named) => entry.artifact.name ?? entry.artifact.slug;
