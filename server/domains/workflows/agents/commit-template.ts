import type { Database } from "@/server/db";
import { commitRevision, getVariant, type CommitResult, type Scope } from "@/server/versioning";
import { latestRevisionOrNull } from "@/server/versioning";
import { workflowsSpec } from "../spec";

/**
 * The editor changes only the agent template; whatever else the variant's newest revision holds
 * (other parameters, inputs) is carried into the new commit unchanged.
 */
export async function commitAgentTemplate(
  db: Database,
  scope: Scope,
  input: { variantId: string; template: unknown; message?: string },
): Promise<CommitResult> {
  const variant = await getVariant(db, scope, workflowsSpec, input.variantId);
  const previous = await latestRevisionOrNull(db, variant.id, variant.headVersion);
  const data = previous?.data ?? {};
  const parameters = (data.parameters ?? {}) as Record<string, unknown>;
  return commitRevision(db, scope, workflowsSpec, {
    variantId: variant.id,
    message: input.message,
    data: { ...data, parameters: { ...parameters, agent: input.template } },
  });
}
