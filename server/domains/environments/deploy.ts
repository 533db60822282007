import { BadRequestError } from "@/server/core/errors";
import type { Database, Transaction } from "@/server/db";
import {
  commitInTransaction,
  deployMessage,
  isEmptyRef,
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
  /** The target: the environment, its variant, or one of its revisions (which names both); at least one. */
  environment?: Ref;
  environmentVariant?: Ref;
  environmentRevision?: Ref;
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
  const { artifact, variant, revision: revisionRef } = request.source;
  if (isEmptyRef(artifact) && isEmptyRef(variant) && isEmptyRef(revisionRef))
    throw new BadRequestError(
      `Say what to deploy: send ${keys.revisionRef}, ${keys.variantRef} (its latest revision) or ${keys.ref} (its default variant's latest)`,
      "missing_reference",
    );
  if (
    isEmptyRef(request.environment) &&
    isEmptyRef(request.environmentVariant) &&
    isEmptyRef(request.environmentRevision)
  )
    throw new BadRequestError(
      "Say where to deploy: send environment_ref (id or slug), environment_variant_ref or environment_revision_ref",
      "missing_reference",
    );
  return db.transaction(async (tx) => {
    const { revision } = await resolveRevision(tx, scope.projectId, keys, request.source);
    const { environment, variant } = await targetOf(tx, scope.projectId, request);
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

/**
 * The environment and variant a deploy commits to. An environment revision (or a version of one)
 * names them as retrieve finds it, every other reference agreeing. The deploy still adds its key to
 * what the variant holds now, as the compat API's deploy does: naming an older revision never rolls
 * the other keys back. Otherwise the environment's default variant, or the named one (no revision
 * needed: a new environment has none).
 */
async function targetOf(tx: Transaction, projectId: string, request: DeployRequest) {
  const envLookup = new Lookup(tx, projectId, environmentsSpec.keys);
  const versioned = [request.environment, request.environmentVariant].some((ref) => ref?.version);
  if (!isEmptyRef(request.environmentRevision) || versioned) {
    const { revision } = await resolveRevision(tx, projectId, environmentsSpec.keys, {
      artifact: request.environment,
      variant: request.environmentVariant,
      revision: request.environmentRevision,
    });
    return {
      environment: await envLookup.artifact({ id: revision.artifactId }),
      variant: await envLookup.variant({ id: revision.variantId }),
    };
  }
  if (isEmptyRef(request.environment)) {
    const variant = await envLookup.variant(request.environmentVariant!, undefined, "environment_variant_ref");
    return { environment: await envLookup.artifact({ id: variant.artifactId }), variant };
  }
  const environment = await envLookup.artifact(request.environment!, "environment_ref");
  const variant = !isEmptyRef(request.environmentVariant)
    ? await envLookup.variant(request.environmentVariant!, environment.id, "environment_variant_ref")
    : await envLookup.defaultVariant(environment);
  return { environment, variant };
}
