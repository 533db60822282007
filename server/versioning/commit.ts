import { and, eq } from "drizzle-orm";
import { BadRequestError, ConflictError, NotFoundError } from "@/server/core/errors";
import { newId } from "@/server/core/ids";
import { randomSlug } from "@/server/core/slugs";
import type { Database, Transaction } from "@/server/db";
import { artifacts, revisions, variants } from "@/server/db/schema";
import type { CommitPayload, DomainSpec } from "./domain-spec";
import { latestRevisionOrNull, Lookup } from "./lookup";
import type { RevisionRecord, Scope, VariantRecord } from "./records";
import { emitRevisionCommitted } from "./revision-events";

export interface CommitRequest extends CommitPayload {
  variantId?: string;
  artifactId?: string;
  slug?: string;
  message?: string;
}

export interface CommitResult {
  revision: RevisionRecord;
  warnings: string[];
}

export async function commitRevision(db: Database, scope: Scope, spec: DomainSpec, request: CommitRequest): Promise<CommitResult> {
  return db.transaction((tx) => commitInTransaction(tx, scope, spec, request));
}

/**
 * Locks the variant row, so concurrent commits to one variant take turns and get consecutive
 * versions (the unique index on (variant_id, version) backs it); the domain prepares the data
 * under that lock; the revision and its committed event are written in the same transaction.
 */
export async function commitInTransaction(tx: Transaction, scope: Scope, spec: DomainSpec, request: CommitRequest): Promise<CommitResult> {
  const { keys } = spec;
  const variant = await lockVariant(tx, scope, spec, request);
  const [artifact] = await tx.select().from(artifacts).where(eq(artifacts.id, variant.artifactId));
  if (artifact.deletedAt || variant.deletedAt) {
    const what = artifact.deletedAt ? `${keys.one} "${artifact.slug}"` : `${keys.variant} "${variant.slug}"`;
    throw new ConflictError(`${what} is archived; unarchive it before committing`, "archived");
  }
  const previous = await latestRevisionOrNull(tx, variant.id, variant.headVersion);
  const prepared = spec.prepareCommit
    ? await spec.prepareCommit({ tx, projectId: scope.projectId, userId: scope.userId, artifact, variant, previous }, request)
    : { data: request.data ?? {} };

  if (request.slug) await assertRevisionSlugFree(tx, scope.projectId, request.slug);
  const version = variant.headVersion + 1;
  await tx.update(variants).set({ headVersion: version }).where(eq(variants.id, variant.id));
  const [row] = await tx
    .insert(revisions)
    .values({
      id: newId(),
      projectId: scope.projectId,
      domain: keys.name,
      artifactId: artifact.id,
      variantId: variant.id,
      slug: request.slug ?? randomSlug(),
      version,
      data: prepared.data,
      message: request.message ?? null,
      authorId: scope.userId,
    })
    .returning();
  const revision: RevisionRecord = { ...row, artifactSlug: artifact.slug, variantSlug: variant.slug };
  await emitRevisionCommitted(tx, scope, keys, revision, prepared.eventAttributes);
  return { revision, warnings: prepared.warnings ?? [] };
}

async function lockVariant(tx: Transaction, scope: Scope, spec: DomainSpec, request: CommitRequest): Promise<VariantRecord> {
  const { keys } = spec;
  let variantId = request.variantId;
  if (!variantId && request.artifactId) {
    const lookup = new Lookup(tx, scope.projectId, keys);
    variantId = (await lookup.defaultVariant(await lookup.artifact({ id: request.artifactId }, keys.artifactId))).id;
  }
  const [variant] = await tx
    .select()
    .from(variants)
    .where(and(eq(variants.id, variantId!), eq(variants.projectId, scope.projectId), eq(variants.domain, keys.name)))
    .for("update");
  if (!variant) throw new NotFoundError(`${keys.variantId} ${variantId} does not exist`);
  if (request.artifactId && request.artifactId !== variant.artifactId) {
    throw new BadRequestError(
      `${keys.artifactId} "${request.artifactId}" does not match ${keys.variantId} ${variant.id}, which belongs to ${keys.one} ${variant.artifactId}`,
      "reference_mismatch",
    );
  }
  return variant;
}

async function assertRevisionSlugFree(tx: Transaction, projectId: string, slug: string): Promise<void> {
  const [taken] = await tx
    .select({ id: revisions.id })
    .from(revisions)
    .where(and(eq(revisions.projectId, projectId), eq(revisions.slug, slug)));
  if (taken) throw new ConflictError(`A revision with slug "${slug}" already exists in this project`, "slug_taken");
}
