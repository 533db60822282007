import type { Transaction } from "@/server/db";
import { FIRST_VARIANT_SLUG, insertArtifact, insertVariant } from "@/server/versioning";
import { environmentsSpec } from "./spec";

export const STANDARD_ENVIRONMENTS = ["development", "staging", "production"] as const;

/** Every new project starts with these environments, each with its default variant and no deployments. */
export async function seedEnvironments(
  tx: Transaction,
  project: { projectId: string; ownerId: string },
): Promise<void> {
  for (const slug of STANDARD_ENVIRONMENTS) {
    const scope = { projectId: project.projectId, userId: project.ownerId };
    const environment = await insertArtifact(tx, scope, environmentsSpec, { slug, name: slug });
    await insertVariant(tx, scope, environmentsSpec, environment.id, { slug: FIRST_VARIANT_SLUG });
  }
}
