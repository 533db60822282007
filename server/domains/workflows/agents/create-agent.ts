import { defaultAgentTemplate } from "@/server/agents";
import type { Database } from "@/server/db";
import { createArtifact, type Scope } from "@/server/versioning";
import { workflowsSpec } from "../spec";

/** A new agent starts from the default template, committed as revision 1 of its default variant. */
export async function createAgent(db: Database, scope: Scope, input: { name: string; slug?: string; description?: string }) {
  return createArtifact(db, scope, workflowsSpec, {
    name: input.name,
    slug: input.slug,
    description: input.description,
    data: { parameters: { agent: defaultAgentTemplate() } },
    message: "Create agent from the default template",
  });
}
