import type { EmbedOptions } from "../embeds";
import type { DomainKeys } from "../domains";
import { hasIdentity, type RetrieveRefs } from "../references";
import { changeTag } from "./change-tags";
import type { RevisionCache, Retrieval } from "./revision-cache";

export interface RetrieveOptions {
  resolve?: boolean;
  embeds?: EmbedOptions;
}

/**
 * A retrieve answered from `cache` when the same request was resolved before and nothing it
 * depends on changed since; else `resolve()` (the database path), whose answer is stored with the
 * tags of what it depends on. Answers with embed errors are not stored (a missing target may
 * appear later).
 */
export async function cachedRetrieval(
  cache: RevisionCache | undefined,
  projectId: string,
  keys: DomainKeys,
  refs: RetrieveRefs,
  options: RetrieveOptions,
  resolve: () => Promise<Retrieval>,
): Promise<Retrieval> {
  if (!cache) return resolve();
  const key = projectId + requestKey(keys, refs, options);
  const hit = cache.get(key);
  if (hit) return hit;
  const ticket = cache.ticket();
  const found = await resolve();
  if (!found.resolved?.errors.length) cache.set(key, found, dependencies(projectId, keys, refs, found), ticket);
  return found;
}

// A route passes the same refs and embed options objects for every request with the same body
// (the parsed body is memoized, and so are the refs the route makes of it), so the JSON of what
// the request asks is made once per body, not per request.
const requestKeys = new WeakMap<RetrieveRefs, { keys: DomainKeys; resolve: boolean; embeds: unknown; json: string }>();

/** The part of the cache key that depends on the request, keyed by the refs object it was made of. */
function requestKey(keys: DomainKeys, refs: RetrieveRefs, options: RetrieveOptions): string {
  const resolve = Boolean(options.resolve);
  const made = requestKeys.get(refs);
  if (made && made.keys === keys && made.resolve === resolve && made.embeds === options.embeds) return made.json;
  const json = JSON.stringify([keys.name, refs, resolve, resolve ? (options.embeds ?? {}) : {}]);
  requestKeys.set(refs, { keys, resolve, embeds: options.embeds, json });
  return json;
}

/**
 * What an answer depends on: every revision it shows (headers, archive state, and those of its
 * variant and artifact); the head of the variant when it is "the latest"; the default variant
 * when it was found through the artifact; the environment's head and default variant when it was
 * found through one; slug uniqueness for a variant slug given without its artifact; the whole
 * project when embeds were resolved.
 */
export function dependencies(projectId: string, keys: DomainKeys, refs: RetrieveRefs, found: Retrieval): string[] {
  const { revision, environment } = found;
  const tags: string[] = [];
  for (const r of environment ? [revision, environment.revision] : [revision]) {
    tags.push(changeTag.revision(r.id), changeTag.variant(r.variantId), changeTag.artifact(r.artifactId));
  }
  if (environment) {
    tags.push(
      changeTag.head(environment.revision.variantId),
      changeTag.defaultVariant(environment.revision.artifactId),
    );
  } else if (!hasIdentity(refs.revision)) {
    const pinned = Boolean(refs.revision?.version ?? refs.variant?.version ?? refs.artifact?.version);
    if (!pinned) tags.push(changeTag.head(revision.variantId));
    if (!hasIdentity(refs.variant)) tags.push(changeTag.defaultVariant(revision.artifactId));
    else if (!refs.variant!.id && !hasIdentity(refs.artifact))
      tags.push(changeTag.variantSlug(projectId, keys.name, refs.variant!.slug!));
  }
  if (found.resolved) tags.push(changeTag.embeds(projectId));
  return tags;
}
