import { and, desc, eq, inArray, isNull, lte } from "drizzle-orm";
import { BadRequestError } from "@/server/core/errors";
import { toPage, type Page, type Windowing } from "@/server/core/windowing";
import { containsText, replicaRead, type Executor } from "@/server/db";
import { artifacts, revisions, variants } from "@/server/db/schema";
import type { DomainSpec } from "./domain-spec";
import { domainScope } from "./domain-scope";
import { resolveEmbeds, type EmbedOptions, type ResolvedData } from "./embeds";
import { entityConditions, refConditions, windowClause, type EntityFilter } from "./filters";
import { Lookup } from "./lookup";
import type { EntityHeader, RevisionRecord, Scope } from "./records";
import type { RetrieveRefs } from "./references";
import { emitRevisionList, emitRevisionRead } from "./revision-events";
import { selectRevisions } from "./revision-select";
import { resolveRevision, type Resolution } from "./resolve-revision";
import { chooseArm } from "./split-choice";
import { cachedAnswer, storedRetrieval, type RetrieveOptions } from "./cache/cached-retrieval";
import { changeTag, publishChange } from "./cache/change-tags";
import type { RevisionCache, Retrieval, WeightedRetrieval } from "./cache/revision-cache";

export async function fetchRevision(db: Executor, scope: Scope, spec: DomainSpec, id: string): Promise<RevisionRecord> {
  const revision = await new Lookup(db, scope.projectId, spec.keys).revision({ id }, `${spec.keys.revision} id`);
  await emitRevisionRead(db, scope, spec.keys, "fetched", revision);
  return revision;
}

/**
 * With `resolve`, embeds are resolved too; the retrieved event is written only once everything
 * succeeded, so a request that fails (a bad embed, say) reports no retrieve. With a `cache`, an
 * answer resolved before is served from memory (cache/README.md); the event is written all the same.
 */
export async function retrieveRevision(
  db: Executor,
  scope: Scope,
  spec: DomainSpec,
  refs: RetrieveRefs,
  options: RetrieveOptions & { cache?: RevisionCache; splitKey?: string } = {},
): Promise<Retrieval> {
  const found =
    cachedAnswer(options.cache, scope.projectId, spec.keys, refs, options) ??
    (await storedRetrieval(options.cache, scope.projectId, spec.keys, refs, options, () =>
      missRead(db, scope.projectId, spec, refs, options),
    ));
  const served = servedAnswer(found, options.splitKey);
  await emitRevisionRead(db, scope, spec.keys, "retrieved", served.revision);
  return served;
}

/**
 * The database path of a retrieve. With a cache (the REST routes), a miss reads a replica that
 * holds the caller's last write and every change the cache has heard of (server/db/README.md,
 * "Read replicas"); engine callers without one read `db`, their transaction or the primary.
 */
function missRead(
  db: Executor,
  projectId: string,
  spec: DomainSpec,
  refs: RetrieveRefs,
  options: RetrieveOptions & { cache?: RevisionCache },
): Promise<Retrieval> {
  const read = async (on: Executor) =>
    retrievalOf(on, projectId, await resolveRevision(on, projectId, spec.keys, refs), options);
  if (!options.cache) return read(db);
  return replicaRead<Retrieval, Executor>(db, read, { freshSince: options.cache.replicaFreshSince });
}

/** A resolution with its embeds resolved (with `resolve`), each arm of a split on its own. */
async function retrievalOf(
  db: Executor,
  projectId: string,
  { split, ...resolution }: Resolution,
  options: RetrieveOptions,
): Promise<Retrieval> {
  const embedsOf = (revision: RevisionRecord) =>
    options.resolve ? resolveEmbeds(db, projectId, revision.data ?? {}, revision.id, options.embeds) : undefined;
  const found: Retrieval = { ...resolution, resolved: await embedsOf(resolution.revision) };
  if (!split) return found;
  const arms: WeightedRetrieval[] = [];
  for (const arm of split) {
    const answer =
      arm.revision === resolution.revision
        ? { revision: found.revision, environment: found.environment, resolved: found.resolved }
        : { revision: arm.revision, environment: resolution.environment, resolved: await embedsOf(arm.revision) };
    arms.push({ weight: arm.weight, answer });
  }
  return { ...found, arms };
}

/**
 * The answer for this request: through a split environment, the arm the sticky key chooses (the
 * environment and key salt the hash, so a key stays put while weights change); else the answer.
 */
export function servedAnswer(found: Retrieval, splitKey: string | undefined): Retrieval {
  if (!found.arms) return found;
  const hop = found.environment!;
  return chooseArm(found.arms, `${hop.revision.artifactId}:${hop.key}`, splitKey).answer;
}

/**
 * The compat API's inline form of `/resolve`: embeds in data that is not (yet) a revision. Reads
 * no revision of its own, so it emits no retrieved event.
 */
export async function resolveInline(
  db: Executor,
  scope: Scope,
  spec: DomainSpec,
  data: Record<string, unknown>,
  refs: RetrieveRefs,
  options?: EmbedOptions,
): Promise<ResolvedData> {
  if (Object.values(refs).some((r) => r !== undefined)) {
    throw new BadRequestError(`Send references or an inline ${spec.keys.revision}, not both`, "ambiguous_request");
  }
  return resolveEmbeds(db, scope.projectId, data, undefined, options);
}

export interface LogRequest {
  variantId?: string;
  artifactId?: string;
  /** History up to and including this revision. */
  revisionId?: string;
  depth?: number;
}

/** Commit metadata of a variant, newest first, without payloads. */
export async function logRevisions(
  db: Executor,
  scope: Scope,
  spec: DomainSpec,
  request: LogRequest,
): Promise<RevisionRecord[]> {
  const lookup = new Lookup(db, scope.projectId, spec.keys);
  let variantId: string;
  let upTo: number | undefined;
  if (request.revisionId) {
    const start = await lookup.revision({ id: request.revisionId }, spec.keys.revisionId);
    variantId = start.variantId;
    upTo = start.version;
  } else if (request.variantId) {
    variantId = (await lookup.variant({ id: request.variantId }, undefined, spec.keys.variantId)).id;
  } else if (request.artifactId) {
    variantId = (await lookup.defaultVariant(await lookup.artifact({ id: request.artifactId }, spec.keys.artifactId)))
      .id;
  } else {
    throw new BadRequestError(
      `Say whose history to log: ${spec.keys.variantId}, ${spec.keys.artifactId} or ${spec.keys.revisionId}`,
      "missing_reference",
    );
  }
  // A depth of 0 asks for nothing (the compat API's answer too); archived revisions are not history.
  if (request.depth === 0) return [];
  let query = selectRevisions(db, false)
    .where(
      and(
        eq(revisions.variantId, variantId),
        isNull(revisions.deletedAt),
        upTo === undefined ? undefined : lte(revisions.version, upTo),
      ),
    )
    .orderBy(desc(revisions.version));
  if (request.depth) query = query.limit(request.depth);
  const rows = (await query) as RevisionRecord[];
  await emitRevisionList(db, scope, spec.keys, "logged", rows);
  return rows;
}

export interface RevisionQuery {
  filter?: EntityFilter & { message?: string; authorIds?: string[]; artifactId?: string; variantId?: string };
  artifactRefs?: { id?: string; slug?: string }[];
  variantRefs?: { id?: string; slug?: string }[];
  revisionRefs?: { id?: string; slug?: string }[];
  includeArchived?: boolean;
  windowing?: Windowing;
}

/** Revisions of archived variants or artifacts are hidden with them unless `includeArchived`. */
export async function queryRevisions(
  db: Executor,
  scope: Scope,
  spec: DomainSpec,
  query: RevisionQuery,
): Promise<Page<RevisionRecord>> {
  const w = windowClause(revisions, query.windowing);
  const filter = query.filter ?? {};
  const rows = (await selectRevisions(db)
    .where(
      and(
        eq(revisions.projectId, scope.projectId),
        domainScope(spec.keys).child(revisions),
        query.includeArchived
          ? undefined
          : and(isNull(revisions.deletedAt), isNull(variants.deletedAt), isNull(artifacts.deletedAt)),
        ...entityConditions(revisions, filter, spec.keys.roleFlags),
        filter.message ? containsText(revisions.message, filter.message) : undefined,
        filter.authorIds?.length ? inArray(revisions.authorId, filter.authorIds) : undefined,
        filter.artifactId ? eq(revisions.artifactId, filter.artifactId) : undefined,
        filter.variantId ? eq(revisions.variantId, filter.variantId) : undefined,
        refConditions(artifacts, query.artifactRefs),
        refConditions(variants, query.variantRefs),
        refConditions(revisions, query.revisionRefs),
        ...w.conditions,
      ),
    )
    .orderBy(w.orderBy)
    .limit(w.limit + 1)) as RevisionRecord[];
  const page = toPage(rows, w.limit);
  await emitRevisionList(db, scope, spec.keys, "queried", page.items);
  return page;
}

/**
 * Edits a revision's header (name, description, flags, tags, meta). What was committed (data,
 * author, date, message, version) never changes: a change to those is a new commit.
 */
export async function updateRevision(
  db: Executor,
  scope: Scope,
  spec: DomainSpec,
  id: string,
  fields: EntityHeader,
): Promise<RevisionRecord> {
  const current = await new Lookup(db, scope.projectId, spec.keys).revision({ id }, `${spec.keys.revision} id`);
  if (Object.keys(fields).length === 0)
    throw new BadRequestError("Nothing to update: send name, description, flags, tags or meta", "empty_update");
  const [row] = await db
    .update(revisions)
    .set({ ...fields, updatedAt: new Date() })
    .where(and(eq(revisions.id, id), eq(revisions.projectId, scope.projectId)))
    .returning({
      name: revisions.name,
      description: revisions.description,
      flags: revisions.flags,
      tags: revisions.tags,
      meta: revisions.meta,
      updatedAt: revisions.updatedAt,
    });
  await publishChange(db, scope.projectId, [changeTag.revision(id)]);
  return { ...current, ...row };
}

export async function setRevisionArchived(db: Executor, scope: Scope, spec: DomainSpec, id: string, archived: boolean) {
  const current = await new Lookup(db, scope.projectId, spec.keys).revision({ id }, `${spec.keys.revision} id`);
  if (Boolean(current.deletedAt) === archived) return current;
  const [row] = await db
    .update(revisions)
    .set({ deletedAt: archived ? new Date() : null })
    .where(and(eq(revisions.id, id), eq(revisions.projectId, scope.projectId)))
    .returning({ deletedAt: revisions.deletedAt });
  await publishChange(db, scope.projectId, [changeTag.revision(id)]);
  return { ...current, deletedAt: row.deletedAt };
}
