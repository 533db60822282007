import { defaultAgentTemplate, type StartingModel } from "@/server/agent-template";
import { ConflictError, isAppError } from "@/server/core/errors";
import type { Database } from "@/server/db";
import { createArtifact, freeSlug, type Scope } from "@/server/versioning";
import { workflowsSpec } from "../spec";

/** A new agent starts from the default template, committed as revision 1 of its default variant. */
export async function createAgent(
  db: Database,
  scope: Scope,
  input: { name: string; slug?: string; description?: string; llm?: StartingModel },
) {
  try {
    // With data, the create makes the agent's first variant explicitly and commits revision 1 to it.
    const created = await createArtifact(db, scope, workflowsSpec, {
      name: input.name,
      slug: input.slug,
      description: input.description,
      data: { parameters: { agent: defaultAgentTemplate(input.llm) } },
      message: "Create agent from the default template",
    });
    return { artifact: created.artifact, variant: created.variant!, commit: created.commit! };
  } catch (error) {
    // The engine speaks of workflows; here it is an agent, and the person gets a slug that is free.
    if (isAppError(error) && error.code === "slug_taken" && input.slug) {
      const free = await freeSlug(db, scope.projectId, workflowsSpec, input.slug);
      throw new ConflictError(
        `An agent with slug "${input.slug}" already exists in this project; "${free}" is free`,
        "slug_taken",
        [{ path: "slug", message: `Another agent has this slug; try "${free}"` }],
      ).structured({ conflict: { slug: input.slug } });
    }
    throw error;
  }
}
