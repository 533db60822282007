import { capped, emitEvent, serializedAttributes } from "@/server/events";
import { revisionEventType, type RevisionAction } from "@/shared/event-catalog";
import type { Executor } from "@/server/db";
import type { DomainKeys } from "./domains";
import type { RevisionRecord, Scope } from "./records";

/** `{application: {id, slug}, application_variant: {id, slug}, application_revision: {id, slug, version}}` */
export function revisionReferences(keys: DomainKeys, revision: RevisionRecord) {
  return {
    [keys.one]: { id: revision.artifactId, slug: revision.artifactSlug },
    [keys.variant]: { id: revision.variantId, slug: revision.variantSlug },
    [keys.revision]: { id: revision.id, slug: revision.slug, version: String(revision.version) },
  };
}

// A revision answered from memory is the same record object on every read: its references'
// JSON is made once.
const referencesJson = new WeakMap<RevisionRecord, { keys: DomainKeys; json: string }>();

/** retrieved and fetched: one revision. */
export function emitRevisionRead(
  db: Executor,
  scope: Scope,
  keys: DomainKeys,
  action: "retrieved" | "fetched",
  revision: RevisionRecord,
) {
  let references = referencesJson.get(revision);
  if (references?.keys !== keys) {
    references = { keys, json: JSON.stringify(revisionReferences(keys, revision)) };
    referencesJson.set(revision, references);
  }
  const user = scope.userId === undefined ? "" : `,"user_id":${JSON.stringify(scope.userId)}`;
  return emitEvent(db, {
    projectId: scope.projectId,
    type: revisionEventType(keys.name, action),
    attributes: serializedAttributes(`{"references":${references.json},"count":1${user}}`),
  });
}

/** queried and logged: a capped list of references and the uncapped count. */
export function emitRevisionList(
  db: Executor,
  scope: Scope,
  keys: DomainKeys,
  action: "queried" | "logged",
  revisions: RevisionRecord[],
) {
  return emitEvent(db, {
    projectId: scope.projectId,
    type: revisionEventType(keys.name, action satisfies RevisionAction),
    attributes: {
      references: capped(revisions).map((r) => revisionReferences(keys, r)),
      count: revisions.length,
      user_id: scope.userId,
    },
  });
}

export function emitRevisionCommitted(
  db: Executor,
  scope: Scope,
  keys: DomainKeys,
  revision: RevisionRecord,
  extra: Record<string, unknown> = {},
) {
  return emitEvent(db, {
    projectId: scope.projectId,
    type: revisionEventType(keys.name, "committed"),
    attributes: {
      references: revisionReferences(keys, revision),
      user_id: scope.userId,
      ...(revision.message ? { message: revision.message } : {}),
      ...extra,
    },
  });
}
