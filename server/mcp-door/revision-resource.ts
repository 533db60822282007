import type { Executor } from "@/server/db";
import { DOMAIN_SPECS } from "@/server/domains";
import type { ExposedTarget } from "@/server/exposure";
import { fetchRevision, type Scope } from "@/server/versioning";

const SPEC = { agent: DOMAIN_SPECS.workflows, prompt: DOMAIN_SPECS.applications } as const;

/** A deployed revision's address: what an environment runs under a name, so it changes with deploys only in content. */
export const resourceUri = (target: ExposedTarget) => `deployed://${target.environment}/${target.kind}/${target.slug}`;

export function resourceOf(target: ExposedTarget) {
  return {
    uri: resourceUri(target),
    name: `${target.name} configuration`,
    title: `${target.title} v${target.version} (${target.environment})`,
    description: `The configuration of the ${target.kind === "agent" ? "agent" : "prompt"} revision ${target.environment} runs (read-only)`,
    mimeType: "application/json",
  };
}

/** The revision's configuration as the versioning API serves it (`data`), with what names it. */
export async function deployedResource(db: Executor, scope: Scope, target: ExposedTarget) {
  const revision = await fetchRevision(db, scope, SPEC[target.kind], target.revisionId);
  const body = {
    slug: target.slug,
    environment: target.environment,
    variant: revision.variantSlug,
    version: String(revision.version),
    revision_id: revision.id,
    message: revision.message ?? undefined,
    data: revision.data ?? {},
  };
  return { uri: resourceUri(target), mimeType: "application/json", text: JSON.stringify(body, null, 2) };
}
