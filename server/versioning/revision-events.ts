import { capped, emitEvent } from "@/server/events";
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

/** retrieved and fetched: one revision. */
export function emitRevisionRead(
  db: Executor,
  scope: Scope,
  keys: DomainKeys,
  action: "retrieved" | "fetched",
  revision: RevisionRecord,
) {
  return emitEvent(db, {
    projectId: scope.projectId,
    type: revisionEventType(keys.name, action),
    attributes: { references: revisionReferences(keys, revision), count: 1, user_id: scope.userId },
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
