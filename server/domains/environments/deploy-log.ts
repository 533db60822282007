import type { Executor } from "@/server/db";
import { artifactNames, Lookup, revisionsOfVariant, type RevisionRecord, type Scope } from "@/server/versioning";
import { listEnvironmentStates } from "./overview";
import { diffReferences, type ReferenceMap, type ReferencesDiff } from "./references-diff";
import { environmentsSpec } from "./spec";

/**
 * An environment's log read as deploys: each environment revision with what it changed against
 * the revision before it. Reads emit no read events (versioning's plain readers): these are scans
 * the playground runs on behalf of one page, not reads a subscriber asked about.
 */

const BATCH = 100;

/** One reference entry, whatever its domain: `{workflow, workflow_variant, workflow_revision}` flattened. */
export interface DeployedEntry {
  /** The singular of the domain: `workflow`, `application` or `evaluator`. */
  kind: string;
  artifact: { id: string; slug: string; name?: string; archived?: boolean };
  variant: { id: string; slug: string };
  revision: { id: string; slug: string; version: string };
}

export interface DeployChange {
  key: string;
  action: "created" | "updated" | "deleted";
  before?: DeployedEntry;
  after?: DeployedEntry;
}

export interface DeployLogEntry {
  /** The environment revision, with its data. */
  revision: RevisionRecord;
  changes: DeployChange[];
}

export function describeEntry(entry: Record<string, unknown>): DeployedEntry | undefined {
  const revisionKey = Object.keys(entry).find((k) => k.endsWith("_revision"));
  if (!revisionKey) return undefined;
  const kind = revisionKey.slice(0, -"_revision".length);
  const artifact = entry[kind] as DeployedEntry["artifact"] | undefined;
  const variant = entry[`${kind}_variant`] as DeployedEntry["variant"] | undefined;
  const revision = entry[revisionKey] as DeployedEntry["revision"] | undefined;
  if (!artifact?.id || !variant?.id || !revision?.id) return undefined;
  return {
    kind,
    artifact: { id: artifact.id, slug: artifact.slug },
    variant: { id: variant.id, slug: variant.slug },
    revision: { id: revision.id, slug: revision.slug, version: String(revision.version) },
  };
}

function flattenChanges(diff: ReferencesDiff): DeployChange[] {
  const changes: DeployChange[] = [];
  for (const [key, { new: after }] of Object.entries(diff.created))
    changes.push({ key, action: "created", after: describeEntry(after) });
  for (const [key, { old, new: after }] of Object.entries(diff.updated)) {
    changes.push({ key, action: "updated", before: describeEntry(old), after: describeEntry(after) });
  }
  for (const [key, { old }] of Object.entries(diff.deleted))
    changes.push({ key, action: "deleted", before: describeEntry(old) });
  return changes.sort((a, b) => a.key.localeCompare(b.key));
}

const referencesOf = (revision: RevisionRecord) => (revision.data?.references ?? {}) as ReferenceMap;

/** Newest first from `before` (exclusive); reads one revision ahead to diff the oldest of each batch. */
async function* walkLog(
  db: Executor,
  scope: Scope,
  variantId: string,
  before?: string,
): AsyncGenerator<DeployLogEntry> {
  let cursor = before;
  let pending: RevisionRecord | undefined;
  for (;;) {
    const rows = await revisionsOfVariant(db, scope.projectId, variantId, { before: cursor, limit: BATCH });
    for (const row of rows) {
      if (pending)
        yield { revision: pending, changes: flattenChanges(diffReferences(referencesOf(row), referencesOf(pending))) };
      pending = row;
    }
    if (rows.length < BATCH) break;
    cursor = rows[rows.length - 1].id;
  }
  if (pending) yield { revision: pending, changes: flattenChanges(diffReferences({}, referencesOf(pending))) };
}

/** Fills in the names of the deployed artifacts (they may have been renamed or archived since). */
async function nameEntries(db: Executor, scope: Scope, entries: Array<DeployedEntry | undefined>): Promise<void> {
  const ids = [...new Set(entries.flatMap((e) => (e ? [e.artifact.id] : [])))];
  if (ids.length === 0) return;
  const rows = await artifactNames(db, scope.projectId, ids);
  const byId = new Map(rows.map((r) => [r.id, r]));
  for (const entry of entries) {
    const row = entry && byId.get(entry.artifact.id);
    if (!entry || !row) continue;
    entry.artifact.name = row.name ?? undefined;
    if (row.deletedAt) entry.artifact.archived = true;
  }
}

export interface DeployLogQuery {
  environment: string;
  /** Only deploys that changed what this artifact runs. */
  artifactId?: string;
  /** The last environment revision id of the previous page. */
  cursor?: string;
  limit: number;
}

/** An environment's deploys, newest first, paged; with `artifactId`, only the ones touching that artifact. */
export async function listDeployLog(
  db: Executor,
  scope: Scope,
  query: DeployLogQuery,
): Promise<{
  environment: { id: string; slug: string; name: string | null; variantId: string };
  items: DeployLogEntry[];
  next?: string;
}> {
  const lookup = new Lookup(db, scope.projectId, environmentsSpec.keys);
  const environment = await lookup.artifact({ slug: query.environment }, "environment");
  const variant = await lookup.defaultVariant(environment);
  const items: DeployLogEntry[] = [];
  let more = false;
  for await (const entry of walkLog(db, scope, variant.id, query.cursor)) {
    if (query.artifactId) {
      entry.changes = entry.changes.filter((c) => (c.after ?? c.before)?.artifact.id === query.artifactId);
      if (entry.changes.length === 0) continue;
    }
    if (items.length === query.limit) {
      more = true;
      break;
    }
    items.push(entry);
  }
  await nameEntries(
    db,
    scope,
    items.flatMap((i) => i.changes.flatMap((c) => [c.before, c.after])),
  );
  return {
    environment: { id: environment.id, slug: environment.slug, name: environment.name, variantId: variant.id },
    items,
    next: more ? items[items.length - 1].revision.id : undefined,
  };
}

export interface CurrentDeployment extends DeployedEntry {
  key: string;
  /** The environment revision that put this revision in place; absent if the log was rewritten. */
  since?: RevisionRecord;
}

export interface EnvironmentOverview {
  id: string;
  slug: string;
  name: string;
  variantId: string;
  revision?: RevisionRecord;
  deployments: CurrentDeployment[];
}

/** Every environment with what it runs now, and when and by whom each entry was deployed. */
export async function listEnvironmentOverview(db: Executor, scope: Scope): Promise<EnvironmentOverview[]> {
  const states = await listEnvironmentStates(db, scope);
  const overview = await Promise.all(
    states.map(async (state) => {
      const deployments: CurrentDeployment[] = Object.entries(state.references)
        .flatMap(([key, raw]) => {
          const entry = describeEntry(raw);
          return entry ? [{ key, ...entry }] : [];
        })
        .sort((a, b) => a.key.localeCompare(b.key));
      const open = new Map(deployments.map((d) => [d.key, d]));
      if (open.size > 0) {
        for await (const entry of walkLog(db, scope, state.variantId)) {
          for (const change of entry.changes) {
            const deployment = open.get(change.key);
            if (deployment && change.action !== "deleted") {
              deployment.since = { ...entry.revision, data: undefined };
              open.delete(change.key);
            }
          }
          if (open.size === 0) break;
        }
      }
      return {
        id: state.id,
        slug: state.slug,
        name: state.name,
        variantId: state.variantId,
        revision: state.revision,
        deployments,
      };
    }),
  );
  await nameEntries(
    db,
    scope,
    overview.flatMap((e) => e.deployments),
  );
  return overview;
}
