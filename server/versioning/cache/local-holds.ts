import { randomBytes } from "node:crypto";
import { processWide } from "@/server/core/process-wide";

/** A cache that can keep a change of this process's own out until that change is announced. */
export interface HoldingCache {
  hold(id: string, tags: string[]): void;
  release(id: string): void;
}

/**
 * Past this a hold whose notification never came (its transaction rolled back, or nothing
 * listens behind a pooler) is let go.
 */
const HOLD_MS = 10_000;

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
 * commit cannot be stored and served after it.
 */
export function holdLocally(tags: string[]): string {
  const id = `${processToken}.${++lastHold}`;
  for (const cache of caches()) cache.hold(id, tags);
  setTimeout(() => {
    for (const cache of caches()) cache.release(id);
  }, HOLD_MS).unref();
  return id;
}

/** A notification's payload: `#<hold id>` first when the change was published with a hold. */
export function parseChangePayload(payload: string): { holdId?: string; tags: string[] } {
  const tokens = payload.split(" ");
  if (tokens[0]?.startsWith("#")) return { holdId: tokens[0].slice(1), tags: tokens.slice(1) };
  return { tags: tokens };
}
