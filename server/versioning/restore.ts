import type { Database } from "@/server/db";
import { restoreMessage } from "./automatic-messages";
import { commitRevision, type CommitResult } from "./commit";
import type { DomainSpec } from "./domain-spec";
import { Lookup } from "./lookup";
import type { Scope } from "./records";

/** Restoring commits an old revision's payload as the newest revision of its variant; history is never rewritten. */
export async function restoreRevision(
  db: Database,
  scope: Scope,
  spec: DomainSpec,
  revisionId: string,
  message?: string,
): Promise<CommitResult> {
  const source = await new Lookup(db, scope.projectId, spec.keys).revision(
    { id: revisionId },
    `${spec.keys.revision} id`,
  );
  return commitRevision(db, scope, spec, {
    variantId: source.variantId,
    data: source.data,
    message: message ?? restoreMessage(source),
  });
}
