import type { Database } from "@/server/db";
import { artifactsWithRevisions, DOMAIN_SPECS, type ArtifactWithRevisions } from "@/server/domains";
import type { Scope } from "@/server/versioning";

/** What a revision runs when a queue invokes it: an agent template, a prompt, or nothing. */
function invokes(data: Record<string, unknown> | undefined): "agent" | "prompt" | undefined {
  const parameters = (data?.parameters ?? {}) as Record<string, unknown>;
  return parameters.agent !== undefined ? "agent" : parameters.prompt !== undefined ? "prompt" : undefined;
}

/** Each artifact with its runnable revisions (an artifact with none is left out), newest first. */
const runnable = (found: ArtifactWithRevisions[]) =>
  found.flatMap(({ artifact, revisions }) => {
    const choices = revisions.flatMap((r) => {
      const kind = invokes(r.data);
      return kind ? [{ id: r.id, kind, version: String(r.version), message: r.message }] : [];
    });
    return choices.length ? [{ id: artifact.id, name: artifact.name ?? artifact.slug, revisions: choices }] : [];
  });

/** The agents' and prompts' revisions a new review queue may run its testcases through (its picker). */
export async function queueRevisionChoices(db: Database, scope: Scope) {
  const options = { limit: 100, perArtifact: 10 };
  const [agents, prompts] = await Promise.all([
    artifactsWithRevisions(db, scope, DOMAIN_SPECS.workflows, options),
    artifactsWithRevisions(db, scope, DOMAIN_SPECS.applications, options),
  ]);
  return { agents: runnable(agents), prompts: runnable(prompts) };
}
