import { randomBytes } from "node:crypto";
import { processWide } from "@/server/core/process-wide";

/** A cache that can keep a change out until that change is announced as visible. */
export interface HoldingCache {
  hold(id: string, tags: string[]): void;
}

const cachesOf = processWide<object, Set<HoldingCache>>("revision-cache-holds", () => new Set());
const caches = (): Set<HoldingCache> => cachesOf(globalThis);
const processToken = randomBytes(6).toString("base64url");
let lastHold = 0;

export function registerHoldingCache(cache: HoldingCache): () => void {
  caches().add(cache);
  return () => caches().delete(cache);
}

/**
 * Read-your-writes in the writer's process (README.md beside this file): every cache here drops
 * the answers a change touches and stores none naming its tags until the change's own
 * notification comes back (its payload carries the hold's id), so an answer read before the
 * commit cannot be stored and served after it. A hold whose notification never comes (a
 * rollback, a writer that died) runs out in the cache (revision-cache.ts).
 */
export function holdLocally(tags: string[]): string {
  const id = `${processToken}.${++lastHold}`;
  for (const cache of caches()) cache.hold(id, tags);
  return id;
}

/**
 * A notification's payload. `#<hold id> tags`: a change is visible (it releases the hold of that
 * id); bare tags: a change without a hold.
 */
export function parseChangePayload(payload: string): { holdId?: string; tags: string[] } {
  const tokens = payload.split(" ");
  const first = tokens[0] ?? "";
  if (first.startsWith("#")) return { holdId: first.slice(1), tags: tokens.slice(1) };
  return { tags: tokens };
}
