import type { Database } from "@/server/db";
import {
  commitInTransaction,
  deployMessage,
  Lookup,
  resolveRevision,
  revisionNames,
  type DomainKeys,
  type Ref,
  type RetrieveRefs,
  type RevisionRecord,
  type Scope,
} from "@/server/versioning";
import { environmentsSpec } from "./spec";
import { recordAudit } from "@/server/audit";

export interface DeployRequest {
  source: RetrieveRefs;
  environment: Ref;
  environmentVariant?: Ref;
  /** Defaults to `<artifact slug>.revision`. */
  key?: string;
  message?: string;
}

export interface Deployment {
  deployed: RevisionRecord;
  environmentRevision: RevisionRecord;
}

/**
 * Deploying commits a new environment revision whose references point `key` at the revision;
 * the deployed revision itself is untouched.
 */
export async function deployRevision(
  db: Database,
  scope: Scope,
  keys: DomainKeys,
  request: DeployRequest,
): Promise<Deployment> {
  return db.transaction(async (tx) => {
    const { revision } = await resolveRevision(tx, scope.projectId, keys, request.source);
    const envLookup = new Lookup(tx, scope.projectId, environmentsSpec.keys);
    const environment = await envLookup.artifact(request.environment, "environment_ref");
    const variant = request.environmentVariant
      ? await envLookup.variant(request.environmentVariant, environment.id, "environment_variant_ref")
      : await envLookup.defaultVariant(environment);
    const key = request.key ?? `${revision.artifactSlug}.revision`;
    const { revision: environmentRevision } = await commitInTransaction(tx, scope, environmentsSpec, {
      variantId: variant.id,
      delta: { set: { [key]: { [keys.revision]: { id: revision.id } } } },
      message:
        request.message ?? deployMessage(await revisionNames(tx, revision), environment.name || environment.slug),
    });
    await recordAudit(tx, {
      projectId: scope.projectId,
      action: "environment.deployed",
      targetType: "environment",
      targetId: environment.id,
      after: {
        environment: environment.slug,
        key,
        revision_id: revision.id,
        environment_revision_id: environmentRevision.id,
      },
    });
    return { deployed: revision, environmentRevision };
  });
}
