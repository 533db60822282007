import type { Database } from "@/server/db";
import {
  commitInTransaction,
  getArtifact,
  lockVariantRow,
  Lookup,
  type CommitResult,
  type Scope,
} from "@/server/versioning";
import { testsetsSpec } from "./spec";

/**
 * Adds rows to the end of a testset's default variant as one new revision (the rows it had are
 * kept as they are). Read and commit share a transaction, and the commit locks the variant, so two
 * people adding at once both land, one after the other.
 */
export async function appendTestcases(
  db: Database,
  scope: Scope,
  input: { testsetId: string; testcases: Record<string, unknown>[]; message?: string },
): Promise<CommitResult> {
  return db.transaction(async (tx) => {
    const artifact = await getArtifact(tx, scope, testsetsSpec, input.testsetId);
    const lookup = new Lookup(tx, scope.projectId, testsetsSpec.keys);
    const variant = await lookup.defaultVariant(artifact);
    // Locked before the head is read: a concurrent append waits here, then reads our rows too.
    await lockVariantRow(tx, variant.id);
    const head = await lookup.latestOfArtifact({ id: artifact.id });
    const existing = Array.isArray(head?.data?.testcases) ? (head.data.testcases as unknown[]) : [];
    const count = input.testcases.length;
    return commitInTransaction(tx, scope, testsetsSpec, {
      variantId: variant.id,
      data: { ...head?.data, testcases: [...existing, ...input.testcases] },
      message: input.message ?? `Add ${count} ${count === 1 ? "testcase" : "testcases"}`,
    });
  });
}
