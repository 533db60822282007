import { capped, emitEvent, serializedAttributes, type NewEvent, type SerializedAttributes } from "@/server/events";
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

// A revision answered from memory is the same record object on every read: its event's
// attributes are made once per caller, and every event of theirs shares the very string (the
// batched insert groups rows by it).
interface ReadEventParts {
  keys: DomainKeys;
  types: Partial<Record<"retrieved" | "fetched", string>>;
  byUser: Map<string | null | undefined, SerializedAttributes>;
}
const readEventParts = new WeakMap<RevisionRecord, ReadEventParts>();

/** retrieved and fetched: one revision. */
export function emitRevisionRead(
  db: Executor,
  scope: Scope,
  keys: DomainKeys,
  action: "retrieved" | "fetched",
  revision: RevisionRecord,
) {
  let made = readEventParts.get(revision);
  if (made?.keys !== keys) readEventParts.set(revision, (made = { keys, types: {}, byUser: new Map() }));
  let attributes = made.byUser.get(scope.userId);
  if (!attributes) {
    const user = scope.userId === undefined ? "" : `,"user_id":${JSON.stringify(scope.userId)}`;
    const references = JSON.stringify(revisionReferences(keys, revision));
    attributes = serializedAttributes(`{"references":${references},"count":1${user}}`);
    // Bounded by the callers of one cached revision; past a few, the oldest goes.
    if (made.byUser.size >= 16) made.byUser.delete(made.byUser.keys().next().value!);
    made.byUser.set(scope.userId, attributes);
  }
  return emitEvent(db, {
    projectId: scope.projectId,
    type: (made.types[action] ??= revisionEventType(keys.name, action)),
    attributes,
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

/** A commit's event, for its transaction to write (`changeEventInsert`). */
export function revisionCommittedEvent(
  scope: Scope,
  keys: DomainKeys,
  revision: RevisionRecord,
  extra: Record<string, unknown> = {},
): NewEvent {
  return {
    projectId: scope.projectId,
    type: revisionEventType(keys.name, "committed"),
    attributes: {
      references: revisionReferences(keys, revision),
      user_id: scope.userId,
      ...(revision.message ? { message: revision.message } : {}),
      ...extra,
    },
  };
}
