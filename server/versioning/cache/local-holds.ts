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
  expiries.push({ id, until: performance.now() + HOLD_MS });
  expiryTimer ??= setTimeout(releaseExpired, HOLD_MS).unref();
  return id;
}

// Holds in the order they were taken, so in order of expiry: one timer for all of them, not one
// per commit (a timer each was a measurable share of a commit's CPU). A hold its notification
// released already is released again here, which a cache ignores.
const expiries: { id: string; until: number }[] = [];
let expiryTimer: NodeJS.Timeout | undefined;

function releaseExpired(): void {
  const now = performance.now();
  let expired = 0;
  while (expired < expiries.length && expiries[expired]!.until <= now) expired++;
  for (const { id } of expiries.splice(0, expired)) for (const cache of caches()) cache.release(id);
  expiryTimer = expiries.length ? setTimeout(releaseExpired, expiries[0]!.until - now).unref() : undefined;
}

/** A notification's payload: `#<hold id>` first when the change was published with a hold. */
export function parseChangePayload(payload: string): { holdId?: string; tags: string[] } {
  const tokens = payload.split(" ");
  if (tokens[0]?.startsWith("#")) return { holdId: tokens[0].slice(1), tags: tokens.slice(1) };
  return { tags: tokens };
}
