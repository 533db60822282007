import { and, eq, getTableColumns, sql } from "drizzle-orm";
import { BadRequestError, ConflictError, NotFoundError } from "@/server/core/errors";
import { newId } from "@/server/core/ids";
import { randomSlug } from "@/server/core/slugs";
import { logger } from "@/server/core/logger";
import {
  jsonPlaceholder,
  preparedQuery,
  rawQuery,
  sendsAfterCommit,
  timestampPlaceholder,
  transactionThen,
  type Database,
  type Pipelined,
  type Executor,
  type Transaction,
} from "@/server/db";
import { artifacts, revisions, variants } from "@/server/db/schema";
import type { CommitPayload, DomainSpec } from "./domain-spec";
import { childInDomain, roleFlagsParam } from "./domain-scope";
import { assertKnownDataKeys } from "./data-keys";
import { latestRevisionOrNull, Lookup, revisionAt } from "./lookup";
import type { ArtifactRecord, EntityHeader, RevisionRecord, Scope, VariantRecord } from "./records";
import { changeEventInsert, sendChangeEvent } from "@/server/events";
import { revisionCommittedEvent } from "./revision-events";
import { changePayload, changeTag, notifyChange, VERSIONING_CHANNEL } from "./cache/change-tags";

export interface CommitRequest extends CommitPayload, EntityHeader {
  variantId?: string;
  artifactId?: string;
  /**
   * The revision the commit starts from (the compat API's `revision_id`): it names the variant
   * when no variant or artifact id does, and must belong to the variant committed to. Not a head
   * check: a commit on top of an older revision is still the variant's next version, as there.
   */
  revisionId?: string;
  slug?: string;
  message?: string;
}

/**
 * A variant's first revision is version 0 when it carries no data (the compat API's empty initial
 * revision, so its version "1" is the first commit with data, as its clients pin it); every other
 * commit takes the head's version + 1, so a variant whose first commit had data counts from 1 as
 * before, and no stored version ever changes.
 */
function nextVersion(variant: VariantRecord, hasRevision: boolean, request: CommitRequest): number {
  if (!hasRevision && request.data === undefined && request.delta === undefined) return 0;
  return variant.headVersion + 1;
}

export interface CommitResult {
  revision: RevisionRecord;
  warnings: string[];
}

const p = (name: string) => sql.placeholder(name);

/**
 * The statements of a commit, built once (see server/db/prepared.ts). Exported for the benchmark
 * floor (bench/floor-server/), which runs the same SQL in a minimal transaction.
 */
export const commitStatements = {
  lockVariant: (db: Executor) =>
    db
      .select({ variant: getTableColumns(variants), artifact: getTableColumns(artifacts) })
      .from(variants)
      .innerJoin(artifacts, eq(artifacts.id, variants.artifactId))
      .where(
        and(
          eq(variants.id, p("variantId")),
          eq(variants.projectId, p("projectId")),
          childInDomain(variants, p("domain"), p("roleFlags")),
        ),
      )
      .for("update", { of: variants }),
  revisionSlugTaken: (db: Executor) =>
    db
      .select({ id: revisions.id })
      .from(revisions)
      .where(and(eq(revisions.projectId, p("projectId")), eq(revisions.slug, p("slug")))),
  setHead: (db: Executor) =>
    db
      .update(variants)
      .set({ headVersion: sql`${p("version")}::int` })
      .where(eq(variants.id, p("variantId"))),
  insertRevision: (db: Executor) =>
    db.insert(revisions).values({
      id: p("id"),
      projectId: p("projectId"),
      domain: p("domain"),
      artifactId: p("artifactId"),
      variantId: p("variantId"),
      slug: p("slug"),
      version: p("version"),
      data: jsonPlaceholder("data"),
      message: p("message"),
      name: p("name"),
      description: p("description"),
      flags: jsonPlaceholder("flags"),
      tags: jsonPlaceholder("tags"),
      meta: jsonPlaceholder("meta"),
      authorId: p("authorId"),
      createdAt: timestampPlaceholder("createdAt"),
    }),
};

/**
 * The head update with the cache invalidation's notify in the same statement (one statement where
 * the update and `publishChange` were two), for a commit inside a larger transaction or where
 * nothing can be sent after the commit. Parameters: version, variant id, the change's payload
 * (`changePayload`).
 */
const SET_HEAD_AND_PUBLISH = `with published as (select pg_notify('${VERSIONING_CHANNEL}', $3))
update variants set head_version = $1::int from published where variants.id = $2::uuid`;

/**
 * Where a commit's change notification goes: into the transaction (absent), or to the caller,
 * which sends it after the COMMIT.
 */
type Publish = (payload: string) => void;

/**
 * A commit in a transaction of its own, in two round trips: BEGIN with the variant's lock, then
 * the last three statements with the COMMIT and, in the same write, its cache invalidation's
 * NOTIFY as a transaction of its own (cache/README.md, "Notified after the commit"), so no
 * notifying transaction waits for its flush.
 */
export async function commitRevision(
  db: Database,
  scope: Scope,
  spec: DomainSpec,
  request: CommitRequest,
): Promise<CommitResult> {
  if (!sendsAfterCommit(db)) return db.transaction((tx) => commitInTransaction(tx, scope, spec, request));
  const changes: string[] = [];
  return transactionThen(
    db,
    (tx) => sendCommit(tx, scope, spec, request, (payload) => changes.push(payload)),
    () => changes.map(notifyChange),
    (error) =>
      logger.warn(
        { err: error },
        "a committed change was not notified; this process holds its tags until the hold runs out, other processes may answer the old head until they hear a later change",
      ),
  );
}

/** The head update, with the change notified in it or handed to `publish`. */
function setHead(tx: Transaction, projectId: string, variantId: string, version: number, publish?: Publish) {
  // The id as stored: a request may spell it otherwise (upper case), which names no cached answer.
  const payload = changePayload(projectId, [changeTag.head(variantId)]);
  if (!publish) return rawQuery(tx, SET_HEAD_AND_PUBLISH, [version, variantId, payload]);
  publish(payload);
  return preparedQuery(tx, "commit.setHead", commitStatements.setHead).execute({ version, variantId });
}

/**
 * Locks the variant row, so concurrent commits to one variant take turns and get consecutive
 * versions (the unique index on (variant_id, version) backs it); the domain prepares the data
 * under that lock; the revision and its committed event are written in the same transaction.
 */
export async function commitInTransaction(
  tx: Transaction,
  scope: Scope,
  spec: DomainSpec,
  request: CommitRequest,
): Promise<CommitResult> {
  const { value, sentLast } = await sendCommit(tx, scope, spec, request);
  await sentLast;
  return value;
}

/** The commit's statements, its last three sent without waiting for their answers. */
async function sendCommit(
  tx: Transaction,
  scope: Scope,
  spec: DomainSpec,
  request: CommitRequest,
  publish?: Publish,
): Promise<Pipelined<CommitResult>> {
  const { keys } = spec;
  const { variant, artifact } = await lockVariant(tx, scope, spec, request);
  if (artifact.deletedAt || variant.deletedAt) {
    const what = artifact.deletedAt ? `${keys.one} "${artifact.slug}"` : `${keys.variant} "${variant.slug}"`;
    throw new ConflictError(`${what} is archived; unarchive it before committing`, "archived");
  }
  // head_version 0 is both "no revision yet" and "version 0 only": only then is the row looked for.
  const hasRevision = variant.headVersion > 0 || (await revisionAt(tx, variant.id, 0)) !== undefined;
  if (request.initial && hasRevision) {
    throw new ConflictError(
      `An initial revision already exists for ${keys.variant} "${variant.slug}"; commit to add another`,
      "initial_revision_exists",
    );
  }
  const previous = () => latestRevisionOrNull(tx, variant.id, variant.headVersion);
  await assertKnownDataKeys(spec, request.data, previous);
  const prepared = spec.prepareCommit
    ? await spec.prepareCommit(
        { tx, projectId: scope.projectId, userId: scope.userId, artifact, variant, previous },
        request,
      )
    : { data: request.data ?? {} };

  if (request.slug) await assertRevisionSlugFree(tx, scope.projectId, request.slug);
  const revision: RevisionRecord = {
    id: newId(),
    slug: request.slug ?? randomSlug(),
    version: nextVersion(variant, hasRevision, request),
    data: prepared.data,
    message: request.message ?? null,
    name: request.name ?? null,
    description: request.description ?? null,
    flags: request.flags ?? {},
    tags: request.tags ?? {},
    meta: request.meta ?? {},
    updatedAt: null,
    authorId: scope.userId,
    createdAt: new Date(),
    deletedAt: null,
    artifactId: artifact.id,
    artifactSlug: artifact.slug,
    variantId: variant.id,
    variantSlug: variant.slug,
  };
  // The event's attributes are redacted first (that may read the project's rules); then nothing
  // below reads what another statement returns: they are sent together, in this order, in the
  // transaction, where the first failure fails the commit and rolls all of them back. The head
  // update (with the cache's notify, or handing it to `publish`), the revision, the event (with
  // fan-out's wake when a webhook takes it).
  const event = await changeEventInsert(tx, revisionCommittedEvent(scope, keys, revision, prepared.eventAttributes));
  const sentLast = Promise.all([
    setHead(tx, scope.projectId, variant.id, revision.version, publish),
    preparedQuery(tx, "commit.insertRevision", commitStatements.insertRevision).execute({
      ...revision,
      projectId: scope.projectId,
      // A role-flagged workflow committed to through /applications/ stays a workflow (domain-scope.ts).
      domain: variant.domain,
      data: JSON.stringify(revision.data),
      flags: JSON.stringify(revision.flags),
      tags: JSON.stringify(revision.tags),
      meta: JSON.stringify(revision.meta),
      createdAt: revision.createdAt.toISOString(),
    }),
    sendChangeEvent(tx, event),
  ]);
  return { value: { revision, warnings: prepared.warnings ?? [] }, sentLast };
}

async function lockVariant(
  tx: Transaction,
  scope: Scope,
  spec: DomainSpec,
  request: CommitRequest,
): Promise<{ variant: VariantRecord; artifact: ArtifactRecord }> {
  const { keys } = spec;
  let variantId = request.variantId;
  const lookup = new Lookup(tx, scope.projectId, keys);
  const base = request.revisionId ? await lookup.revision({ id: request.revisionId }, "revision_id") : undefined;
  if (!variantId && request.artifactId) {
    variantId = (await lookup.defaultVariant(await lookup.artifact({ id: request.artifactId }, keys.artifactId))).id;
  }
  variantId ??= base?.variantId;
  const [locked] = await preparedQuery(tx, "commit.lockVariant", commitStatements.lockVariant).execute({
    variantId,
    projectId: scope.projectId,
    domain: keys.name,
    roleFlags: roleFlagsParam(keys),
  });
  if (!locked) throw new NotFoundError(`${keys.variantId} ${variantId} does not exist`);
  if (base && base.variantId !== locked.variant.id) {
    throw new BadRequestError(
      `revision_id ${base.id} belongs to ${keys.variant} "${base.variantSlug}", not to ${keys.variantId} ${locked.variant.id}`,
      "reference_mismatch",
    );
  }
  if (request.artifactId && request.artifactId !== locked.variant.artifactId) {
    throw new BadRequestError(
      `${keys.artifactId} "${request.artifactId}" does not match ${keys.variantId} ${locked.variant.id}, which belongs to ${keys.one} ${locked.variant.artifactId}`,
      "reference_mismatch",
    );
  }
  return locked;
}

async function assertRevisionSlugFree(tx: Transaction, projectId: string, slug: string): Promise<void> {
  const [taken] = await preparedQuery(tx, "commit.revisionSlugTaken", commitStatements.revisionSlugTaken).execute({
    projectId,
    slug,
  });
  if (taken)
    throw new ConflictError(`A revision with slug "${slug}" already exists in this project`, "slug_taken").structured({
      conflict: { slug },
    });
}
