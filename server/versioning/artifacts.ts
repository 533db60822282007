import { and, eq, isNull, like, type SQL } from "drizzle-orm";
import { BadRequestError, ConflictError } from "@/server/core/errors";
import { newId } from "@/server/core/ids";
import { randomSlug, slugify } from "@/server/core/slugs";
import { toPage, type Page, type Windowing } from "@/server/core/windowing";
import type { Database, Executor, Transaction } from "@/server/db";
import { artifacts } from "@/server/db/schema";
import { commitInTransaction, type CommitResult } from "./commit";
import type { CommitPayload, DomainSpec } from "./domain-spec";
import { domainScope } from "./domain-scope";
import { entityConditions, refConditions, windowClause, type EntityFilter } from "./filters";
import { Lookup } from "./lookup";
import { insertVariant } from "./variants";
import type { ArtifactRecord, Scope, VariantRecord } from "./records";
import { flagsToStore, type LegacyRoleFlags } from "./role-flags";
import { changeTag, publishChange } from "./cache/change-tags";

export interface ArtifactFields {
  name?: string;
  description?: string | null;
  flags?: Record<string, boolean>;
  tags?: Record<string, unknown>;
  meta?: Record<string, unknown>;
}

export interface CreateArtifactInput extends ArtifactFields, CommitPayload, LegacyRoleFlags {
  slug?: string;
  message?: string;
}

export interface CreatedArtifact {
  artifact: ArtifactRecord;
  /** Present when the request carried data: the variant that revision 1 was committed to. */
  variant?: VariantRecord;
  commit?: CommitResult;
}

/** The variant a create with data makes for its first revision (the compat API's simple API makes one too). */
export const FIRST_VARIANT_SLUG = "default";

/**
 * An artifact; with `data` (or `delta`) also its first variant and revision 1. Without data it has
 * no variant yet, as in the compat API: the client creates its own, and the oldest is the default.
 */
export async function createArtifact(
  db: Database,
  scope: Scope,
  spec: DomainSpec,
  input: CreateArtifactInput,
): Promise<CreatedArtifact> {
  return db.transaction(async (tx) => {
    const artifact = await insertArtifact(tx, scope, spec, input);
    if (input.data === undefined && input.delta === undefined) return { artifact };
    const variant = await insertVariant(tx, scope, spec, artifact.id, { slug: FIRST_VARIANT_SLUG });
    const commit = await commitInTransaction(tx, scope, spec, {
      variantId: variant.id,
      data: input.data,
      delta: input.delta,
      message: input.message ?? "Initial commit",
    });
    return { artifact, variant: { ...variant, headVersion: 1 }, commit };
  });
}

export async function insertArtifact(
  tx: Transaction,
  scope: Scope,
  spec: DomainSpec,
  input: CreateArtifactInput,
): Promise<ArtifactRecord> {
  const slug = input.slug ?? (await freeSlug(tx, scope.projectId, spec, input.name ?? ""));
  if (input.slug) await assertSlugFree(tx, scope.projectId, spec, input.slug);
  const [artifact] = await tx
    .insert(artifacts)
    .values({
      id: newId(),
      projectId: scope.projectId,
      domain: spec.keys.name,
      slug,
      name: input.name ?? slug,
      description: input.description ?? null,
      flags:
        flagsToStore(input.flags, {
          is_application: input.is_application,
          is_evaluator: input.is_evaluator,
        }) ?? {},
      tags: input.tags ?? {},
      meta: input.meta ?? {},
      createdBy: scope.userId,
    })
    .returning();
  return artifact;
}

async function assertSlugFree(db: Executor, projectId: string, spec: DomainSpec, slug: string) {
  const [taken] = await db
    .select({ id: artifacts.id })
    .from(artifacts)
    .where(and(eq(artifacts.projectId, projectId), eq(artifacts.domain, spec.keys.name), eq(artifacts.slug, slug)));
  if (taken)
    throw new ConflictError(
      `A ${spec.keys.one} with slug "${slug}" already exists in this project`,
      "slug_taken",
    ).structured({ conflict: { slug } });
}

/** A slug derived from the name, with `-2`, `-3`... when the plain one is taken. */
export async function freeSlug(db: Executor, projectId: string, spec: DomainSpec, name: string): Promise<string> {
  const base = slugify(name) || randomSlug();
  const rows = await db
    .select({ slug: artifacts.slug })
    .from(artifacts)
    .where(
      and(eq(artifacts.projectId, projectId), eq(artifacts.domain, spec.keys.name), like(artifacts.slug, `${base}%`)),
    );
  const taken = new Set(rows.map((r) => r.slug));
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

export async function getArtifact(db: Executor, scope: Scope, spec: DomainSpec, id: string): Promise<ArtifactRecord> {
  return new Lookup(db, scope.projectId, spec.keys).artifact({ id }, `${spec.keys.one} id`);
}

/**
 * Edits the header. The slug never changes: a body repeating it (compat clients send the whole
 * entity back) is fine, another slug is a 400. An archived artifact is not edited (409) until it
 * is unarchived, as commits to it are refused.
 */
export async function updateArtifact(
  db: Executor,
  scope: Scope,
  spec: DomainSpec,
  id: string,
  fields: ArtifactFields & { slug?: string },
) {
  const current = await getArtifact(db, scope, spec, id);
  const { slug, ...header } = fields;
  if (slug !== undefined && slug !== current.slug) {
    throw new BadRequestError(
      `${spec.keys.one}.slug cannot change: this ${spec.keys.one}'s slug is "${current.slug}" (create a new ${spec.keys.one} for another slug)`,
      "slug_immutable",
    );
  }
  if (current.deletedAt)
    throw new ConflictError(`${spec.keys.one} "${current.slug}" is archived; unarchive it before editing`, "archived");
  if (Object.keys(header).length === 0) {
    if (slug !== undefined) return current;
    throw new BadRequestError("Nothing to update: send name, description, flags, tags or meta", "empty_update");
  }
  await spec.checkArtifactEdit?.({ db, projectId: scope.projectId, userId: scope.userId, artifact: current }, header);
  const flags = flagsToStore(header.flags);
  const [row] = await db
    .update(artifacts)
    .set({ ...header, ...(flags ? { flags } : {}), updatedAt: new Date(), updatedBy: scope.userId })
    .where(and(eq(artifacts.id, id), eq(artifacts.projectId, scope.projectId)))
    .returning();
  await publishChange(db, scope.projectId, [changeTag.artifact(id)]);
  return row;
}

export async function setArtifactArchived(db: Executor, scope: Scope, spec: DomainSpec, id: string, archived: boolean) {
  const current = await getArtifact(db, scope, spec, id);
  if (Boolean(current.deletedAt) === archived) return current;
  const [row] = await db
    .update(artifacts)
    .set({ deletedAt: archived ? new Date() : null })
    .where(and(eq(artifacts.id, id), eq(artifacts.projectId, scope.projectId)))
    .returning();
  await publishChange(db, scope.projectId, [changeTag.artifact(id)]);
  return row;
}

export interface ArtifactQuery {
  filter?: EntityFilter;
  refs?: { id?: string; slug?: string }[];
  includeArchived?: boolean;
  windowing?: Windowing;
  /** A further condition of the caller's own (what makes a workflow an agent, say). */
  where?: SQL;
}

export async function queryArtifacts(
  db: Executor,
  scope: Scope,
  spec: DomainSpec,
  query: ArtifactQuery,
): Promise<Page<ArtifactRecord>> {
  const w = windowClause(artifacts, query.windowing);
  const rows = await db
    .select()
    .from(artifacts)
    .where(
      and(
        eq(artifacts.projectId, scope.projectId),
        domainScope(spec.keys).artifact(artifacts),
        query.includeArchived ? undefined : isNull(artifacts.deletedAt),
        ...entityConditions(artifacts, query.filter ?? {}, spec.keys.roleFlags),
        refConditions(artifacts, query.refs),
        query.where,
        ...w.conditions,
      ),
    )
    .orderBy(w.orderBy)
    .limit(w.limit + 1);
  return toPage(rows, w.limit);
}
