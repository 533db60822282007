import { and, asc, eq, inArray, isNull, lte } from "drizzle-orm";
import { BadRequestError, ConflictError, NotFoundError } from "@/server/core/errors";
import { newId } from "@/server/core/ids";
import { randomSlug, slugify } from "@/server/core/slugs";
import { toPage, type Page, type Windowing } from "@/server/core/windowing";
import type { Database, Executor, Transaction } from "@/server/db";
import { artifacts, revisions, variants } from "@/server/db/schema";
import { commitInTransaction, type CommitResult } from "./commit";
import type { DomainSpec } from "./domain-spec";
import { domainScope, ROLE_DOMAINS } from "./domain-scope";
import { entityConditions, refConditions, windowClause, type EntityFilter } from "./filters";
import { Lookup } from "./lookup";
import type { EntityHeader, RevisionRecord, Scope, VariantRecord } from "./records";
import type { RetrieveRefs } from "./references";
import { resolveRevision } from "./resolve-revision";
import { selectRevisions } from "./revision-select";
import { changeTag, publishChange } from "./cache/change-tags";

export interface VariantFields {
  slug?: string;
  name?: string;
  description?: string | null;
  flags?: Record<string, boolean>;
  tags?: Record<string, unknown>;
  meta?: Record<string, unknown>;
}

export async function createVariant(
  db: Database,
  scope: Scope,
  spec: DomainSpec,
  artifactId: string,
  fields: VariantFields,
) {
  return db.transaction(async (tx) => {
    const artifact = await new Lookup(tx, scope.projectId, spec.keys).artifact(
      { id: artifactId },
      spec.keys.artifactId,
    );
    return insertVariant(tx, scope, spec, artifact.id, fields);
  });
}

export async function insertVariant(
  tx: Transaction,
  scope: Scope,
  spec: DomainSpec,
  artifactId: string,
  fields: VariantFields,
): Promise<VariantRecord> {
  const slug = fields.slug ?? (slugify(fields.name ?? "") || randomSlug());
  const [taken] = await tx
    .select({ id: variants.id })
    .from(variants)
    .where(and(eq(variants.artifactId, artifactId), eq(variants.slug, slug)));
  if (taken)
    throw new ConflictError(`This ${spec.keys.one} already has a variant with slug "${slug}"`, "slug_taken").structured(
      {
        conflict: { slug },
      },
    );
  // The artifact's own domain: a variant made through /applications/ for a role-flagged workflow
  // belongs to the workflow (domain-scope.ts).
  const [artifact] = await tx.select({ domain: artifacts.domain }).from(artifacts).where(eq(artifacts.id, artifactId));
  const [row] = await tx
    .insert(variants)
    .values({
      id: newId(),
      projectId: scope.projectId,
      domain: artifact?.domain ?? spec.keys.name,
      artifactId,
      slug,
      name: fields.name ?? slug,
      description: fields.description ?? null,
      flags: fields.flags ?? {},
      tags: fields.tags ?? {},
      meta: fields.meta ?? {},
      createdBy: scope.userId,
    })
    .returning();
  await publishChange(tx, scope.projectId, [
    changeTag.defaultVariant(artifactId),
    // A workflow-family variant slug is seen by each of the family's domains (domain-scope.ts).
    ...(ROLE_DOMAINS.includes(row.domain) ? ROLE_DOMAINS : [spec.keys.name]).map((domain) =>
      changeTag.variantSlug(scope.projectId, domain, slug),
    ),
  ]);
  return row;
}

export interface ForkResult {
  variant: VariantRecord;
  /** The fork's head: the copy of the revision forked from. */
  commit: CommitResult;
}

/**
 * A new variant carrying the source variant's history, oldest first, up to the revision forked
 * from, as the compat API's fork does (its log shows the source lineage; no extra tip commit). Each
 * copy keeps its version, data, message and header, gets a new id, the slug `<source slug>_<new
 * variant id hex>` and the forking user as author. The head is committed through the commit path
 * (the domain's checks, its committed event); the copies before it are history and emit nothing.
 */
export async function forkVariant(
  db: Database,
  scope: Scope,
  spec: DomainSpec,
  source: RetrieveRefs,
  fields: VariantFields,
): Promise<ForkResult> {
  return db.transaction(async (tx) => {
    const { revision } = await resolveRevision(tx, scope.projectId, spec.keys, source).catch((error: unknown) => {
      // The compat API answers a fork of nothing with 400: the request names a source that is not there.
      if (error instanceof NotFoundError)
        throw new BadRequestError(`The fork's source: ${error.message}`, "bad_request");
      throw error;
    });
    const variant = await insertVariant(tx, scope, spec, revision.artifactId, {
      ...fields,
      slug: fields.slug ?? (fields.name ? undefined : `${revision.variantSlug}-fork-${randomSlug().slice(0, 6)}`),
    });
    const suffix = variant.id.replace(/-/g, "");
    const lineage = (await selectRevisions(tx)
      .where(and(eq(revisions.variantId, revision.variantId), lte(revisions.version, revision.version)))
      .orderBy(asc(revisions.version))) as RevisionRecord[];
    const history = lineage.slice(0, -1);
    if (history.length > 0) {
      const createdAt = new Date();
      // A copy keeps a revision's own archive, not the one its archived source variant gave it.
      const [source] = await tx
        .select({ deletedAt: variants.deletedAt })
        .from(variants)
        .where(eq(variants.id, revision.variantId));
      const ownArchive = (r: RevisionRecord) =>
        r.deletedAt && r.deletedAt.getTime() !== source.deletedAt?.getTime() ? r.deletedAt : null;
      await tx.insert(revisions).values(
        history.map((r) => ({
          id: newId(),
          projectId: scope.projectId,
          domain: variant.domain,
          artifactId: r.artifactId,
          variantId: variant.id,
          slug: `${r.slug}_${suffix}`,
          version: r.version,
          data: r.data,
          message: r.message,
          name: r.name,
          description: r.description,
          flags: r.flags,
          tags: r.tags,
          meta: r.meta,
          authorId: scope.userId,
          createdAt,
          deletedAt: ownArchive(r),
        })),
      );
      await tx
        .update(variants)
        .set({ headVersion: history.at(-1)!.version })
        .where(eq(variants.id, variant.id));
    }
    const commit = await commitInTransaction(tx, scope, spec, {
      variantId: variant.id,
      slug: `${revision.slug}_${suffix}`,
      data: revision.data,
      message: revision.message ?? undefined,
      name: revision.name ?? undefined,
      description: revision.description,
      flags: revision.flags,
      tags: revision.tags,
      meta: revision.meta,
    });
    return { variant: { ...variant, headVersion: commit.revision.version }, commit };
  });
}

export async function getVariant(db: Executor, scope: Scope, spec: DomainSpec, id: string): Promise<VariantRecord> {
  return new Lookup(db, scope.projectId, spec.keys).variant({ id }, undefined, `${spec.keys.variant} id`);
}

/** Edits the header (name, description, flags, tags, meta); a variant's slug and revisions stay. */
export async function updateVariant(
  db: Executor,
  scope: Scope,
  spec: DomainSpec,
  id: string,
  fields: EntityHeader,
): Promise<VariantRecord> {
  await getVariant(db, scope, spec, id);
  if (Object.keys(fields).length === 0)
    throw new BadRequestError("Nothing to update: send name, description, flags, tags or meta", "empty_update");
  const [row] = await db
    .update(variants)
    .set({ ...fields, name: fields.name ?? undefined })
    .where(and(eq(variants.id, id), eq(variants.projectId, scope.projectId)))
    .returning();
  await publishChange(db, scope.projectId, [changeTag.variant(id)]);
  return row;
}

/**
 * Archiving a variant archives its revisions with it, in one transaction and at one timestamp, as
 * the compat API does (a log of the variant then shows nothing). Unarchiving restores the revisions
 * that carry that timestamp: one archived on its own before stays archived (the compat API
 * restores every revision of the variant).
 */
export async function setVariantArchived(db: Database, scope: Scope, spec: DomainSpec, id: string, archived: boolean) {
  const current = await getVariant(db, scope, spec, id);
  return db.transaction(async (tx) => {
    // Under the row lock commits take: no revision lands between the variant's update and its revisions'.
    const [locked] = await tx
      .select({ deletedAt: variants.deletedAt })
      .from(variants)
      .where(and(eq(variants.id, id), eq(variants.projectId, scope.projectId)))
      .for("update");
    if (Boolean(locked.deletedAt) === archived) return { ...current, deletedAt: locked.deletedAt };
    const deletedAt = archived ? new Date() : null;
    await tx
      .update(revisions)
      .set({ deletedAt })
      .where(
        and(
          eq(revisions.variantId, id),
          eq(revisions.projectId, scope.projectId),
          archived ? isNull(revisions.deletedAt) : eq(revisions.deletedAt, locked.deletedAt!),
        ),
      );
    const [row] = await tx
      .update(variants)
      .set({ deletedAt })
      .where(and(eq(variants.id, id), eq(variants.projectId, scope.projectId)))
      .returning();
    await publishChange(tx, scope.projectId, [changeTag.variant(id)]);
    return row;
  });
}

export interface VariantQuery {
  filter?: EntityFilter & { artifactId?: string };
  artifactRefs?: { id?: string; slug?: string }[];
  variantRefs?: { id?: string; slug?: string }[];
  includeArchived?: boolean;
  windowing?: Windowing;
}

/** Variants of archived artifacts are hidden with them unless `includeArchived`. */
export async function queryVariants(
  db: Executor,
  scope: Scope,
  spec: DomainSpec,
  query: VariantQuery,
): Promise<Page<VariantRecord>> {
  const w = windowClause(variants, query.windowing);
  const rows = await db
    .select({ variant: variants })
    .from(variants)
    .innerJoin(artifacts, eq(artifacts.id, variants.artifactId))
    .where(
      and(
        eq(variants.projectId, scope.projectId),
        domainScope(spec.keys).child(variants),
        query.includeArchived ? undefined : and(isNull(variants.deletedAt), isNull(artifacts.deletedAt)),
        ...entityConditions(variants, query.filter ?? {}, spec.keys.roleFlags),
        query.filter?.artifactId ? eq(variants.artifactId, query.filter.artifactId) : undefined,
        refConditions(artifacts, query.artifactRefs),
        refConditions(variants, query.variantRefs),
        ...w.conditions,
      ),
    )
    .orderBy(w.orderBy)
    .limit(w.limit + 1);
  return toPage(
    rows.map((r) => r.variant),
    w.limit,
  );
}

/**
 * The variants among `list` whose only revision is version 0: `head_version` 0 means both "no
 * revision yet" and "version 0 only", so the wire's `version` ("0", or absent) needs this look.
 * One query for a page; none when every variant has a later head.
 */
export async function variantsAtVersionZero(db: Executor, list: VariantRecord[]): Promise<Set<string>> {
  const ids = list.filter((v) => v.headVersion === 0).map((v) => v.id);
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ variantId: revisions.variantId })
    .from(revisions)
    .where(and(inArray(revisions.variantId, ids), eq(revisions.version, 0)));
  return new Set(rows.map((r) => r.variantId));
}
