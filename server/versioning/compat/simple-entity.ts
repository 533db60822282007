import type { Page, Windowing } from "@/server/core/windowing";
import type { Database, Executor } from "@/server/db";
import { createArtifact, getArtifact, queryArtifacts, updateArtifact, type ArtifactFields } from "../artifacts";
import { commitInTransaction } from "../commit";
import type { DomainSpec } from "../domain-spec";
import type { EntityFilter } from "../filters";
import { Lookup } from "../lookup";
import type { ArtifactRecord, RevisionRecord, Scope } from "../records";

/**
 * The compat API's simple API: one entity that is an artifact, its `default` variant and that
 * variant's latest revision, created, read and edited in one call each.
 */
export interface SimpleEntity {
  artifact: ArtifactRecord;
  /** Absent only for an artifact made through the full API that has no revision yet. */
  revision?: RevisionRecord;
}

export interface SimpleFields extends ArtifactFields {
  /** Only the current slug (compat clients repeat it); see updateArtifact. */
  slug?: string;
  data?: Record<string, unknown>;
  message?: string;
}

/** The artifact, its `default` variant and revision 1 (with `data`, or empty), in one transaction. */
export async function createSimple(
  db: Database,
  scope: Scope,
  spec: DomainSpec,
  input: SimpleFields & { slug?: string },
): Promise<SimpleEntity> {
  const created = await createArtifact(db, scope, spec, { ...input, data: input.data ?? {} });
  return { artifact: created.artifact, revision: created.commit!.revision };
}

export async function getSimple(db: Executor, scope: Scope, spec: DomainSpec, id: string): Promise<SimpleEntity> {
  const artifact = await getArtifact(db, scope, spec, id);
  return { artifact, revision: await new Lookup(db, scope.projectId, spec.keys).latestOfArtifact({ id }) };
}

/**
 * Header fields edit the artifact; any edit also commits a revision to the default variant,
 * carrying the new `data` or, when none is sent, the latest revision's. A body with nothing but
 * the id commits nothing and answers the current state, as the compat API does.
 */
export async function editSimple(
  db: Database,
  scope: Scope,
  spec: DomainSpec,
  id: string,
  fields: SimpleFields,
): Promise<SimpleEntity> {
  const { data, message, ...header } = fields;
  if (Object.keys(fields).length === 0) return getSimple(db, scope, spec, id);
  return db.transaction(async (tx) => {
    const artifact = Object.keys(header).length
      ? await updateArtifact(tx, scope, spec, id, header)
      : await getArtifact(tx, scope, spec, id);
    const head = data ? undefined : await new Lookup(tx, scope.projectId, spec.keys).latestOfArtifact({ id });
    const { revision } = await commitInTransaction(tx, scope, spec, {
      artifactId: id,
      data: data ?? head?.data ?? {},
      message: message ?? "Edit",
    });
    return { artifact, revision };
  });
}

export interface SimpleQuery {
  filter?: EntityFilter;
  refs?: { id?: string; slug?: string }[];
  includeArchived?: boolean;
  windowing?: Windowing;
}

export async function querySimple(
  db: Executor,
  scope: Scope,
  spec: DomainSpec,
  query: SimpleQuery,
): Promise<Page<SimpleEntity & { id: string }>> {
  const page = await queryArtifacts(db, scope, spec, query);
  const lookup = new Lookup(db, scope.projectId, spec.keys);
  const items = [];
  for (const artifact of page.items)
    items.push({ id: artifact.id, artifact, revision: await lookup.latestOfArtifact({ id: artifact.id }) });
  return { items, next: page.next };
}
