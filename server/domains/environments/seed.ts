import type { Transaction } from "@/server/db";
import { insertArtifact } from "@/server/versioning";
import { environmentsSpec } from "./spec";

export const STANDARD_ENVIRONMENTS = ["development", "staging", "production"] as const;

/** Every new project starts with these environments, each with its default variant and no deployments. */
export async function seedEnvironments(tx: Transaction, project: { projectId: string; ownerId: string }): Promise<void> {
  for (const slug of STANDARD_ENVIRONMENTS) {
    await insertArtifact(tx, { projectId: project.projectId, userId: project.ownerId }, environmentsSpec, { slug, name: slug });
  }
}
