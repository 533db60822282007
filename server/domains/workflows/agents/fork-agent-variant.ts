import { ConflictError, isAppError } from "@/server/core/errors";
import { slugify } from "@/server/core/slugs";
import type { Database } from "@/server/db";
import { forkVariant, Lookup, variantSlugs, type Scope } from "@/server/versioning";
import { workflowsSpec } from "../spec";

/** A new variant of an agent from one of its revisions; a taken slug is refused in an agent's words, with a free one. */
export async function forkAgentVariant(
  db: Database,
  scope: Scope,
  input: { revisionId: string; slug?: string; name?: string },
) {
  try {
    return await forkVariant(
      db,
      scope,
      workflowsSpec,
      { revision: { id: input.revisionId } },
      { slug: input.slug, name: input.name },
    );
  } catch (error) {
    const wanted = input.slug ?? (input.name ? slugify(input.name) : "");
    if (!isAppError(error) || error.code !== "slug_taken" || !wanted) throw error;
    const revision = await new Lookup(db, scope.projectId, workflowsSpec.keys).revision({ id: input.revisionId });
    const taken = new Set(await variantSlugs(db, revision.artifactId));
    let free = `${wanted}-2`;
    for (let n = 3; taken.has(free); n++) free = `${wanted}-${n}`;
    throw new ConflictError(`This agent already has a variant with slug "${wanted}"; "${free}" is free`, "slug_taken", [
      { path: "slug", message: `Another variant of this agent has this slug; try "${free}"` },
    ]).structured({ conflict: { slug: wanted } });
  }
}
