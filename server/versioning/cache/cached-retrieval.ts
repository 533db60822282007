import type { EmbedOptions } from "../embeds";
import type { DomainKeys } from "../domains";
import { hasIdentity, type RetrieveRefs } from "../references";
import { changeTag } from "./change-tags";
import type { RevisionCache, Retrieval } from "./revision-cache";

export interface RetrieveOptions {
  resolve?: boolean;
  embeds?: EmbedOptions;
}

/** The answer `cache` holds for this request, resolved before and unchanged since; else undefined. */
export function cachedAnswer(
  cache: RevisionCache | undefined,
  projectId: string,
  keys: DomainKeys,
  refs: RetrieveRefs,
  options: RetrieveOptions,
): Retrieval | undefined {
  return cache?.get(cacheKey(projectId, keys, refs, options));
}

/**
 * After `cachedAnswer` found nothing: `resolve()` (the database path), whose answer is stored
 * with the tags of what it depends on. Answers with embed errors are not stored (a missing target
 * may appear later). Two functions, so a hit makes no closure for the database path.
 */
export async function storedRetrieval(
  cache: RevisionCache | undefined,
  projectId: string,
  keys: DomainKeys,
  refs: RetrieveRefs,
  options: RetrieveOptions,
  resolve: () => Promise<Retrieval>,
): Promise<Retrieval> {
  if (!cache) return resolve();
  const ticket = cache.ticket();
  const found = await resolve();
  if (!found.resolved?.errors.length && !found.arms?.some((arm) => arm.answer.resolved?.errors.length))
    cache.set(cacheKey(projectId, keys, refs, options), found, dependencies(projectId, keys, refs, found), ticket);
  return found;
}

// A route passes the same refs and embed options objects for every request with the same body
// (the parsed body is memoized, and so are the refs the route makes of it), so the key is made
// once per body and project: the same string object on every hit, whose hash V8 keeps, instead
// of a JSON.stringify and a fresh string to hash per request.
interface MadeKey {
  keys: DomainKeys;
  resolve: boolean;
  embeds: unknown;
  json: string;
  projectId: string;
  key: string;
}
const madeKeys = new WeakMap<RetrieveRefs, MadeKey>();

function cacheKey(projectId: string, keys: DomainKeys, refs: RetrieveRefs, options: RetrieveOptions): string {
  const resolve = Boolean(options.resolve);
  let made = madeKeys.get(refs);
  if (!made || made.keys !== keys || made.resolve !== resolve || made.embeds !== options.embeds) {
    const json = JSON.stringify([keys.name, refs, resolve, resolve ? (options.embeds ?? {}) : {}]);
    made = { keys, resolve, embeds: options.embeds, json, projectId, key: projectId + json };
    madeKeys.set(refs, made);
  } else if (made.projectId !== projectId) {
    made.projectId = projectId;
    made.key = projectId + made.json;
  }
  return made.key;
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
  const shown = environment ? [revision, environment.revision] : [revision];
  for (const arm of found.arms ?? []) if (arm.answer.revision !== revision) shown.push(arm.answer.revision);
  for (const r of shown) {
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
