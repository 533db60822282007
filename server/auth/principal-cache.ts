import { DEFAULT_CACHE_TTL_WITHOUT_LISTEN_MS } from "@/server/core/config";
import { processWide } from "@/server/core/process-wide";
import type { Principal } from "@/server/core/principal";
import { onDatabaseClose, rawQuery, type Database, type Executor } from "@/server/db";
import { NotifiedCache } from "@/server/worker";

/**
 * Resolved keys, so an authenticated request costs no key lookup: a `NotifiedCache`
 * (server/worker/notified-cache.ts: generation ticket, lost listener, expiry mode), coherent like
 * the revision cache (server/versioning/cache/README.md).
 *
 * - A revocation or a role change or removal announces itself with a NOTIFY on
 *   PRINCIPALS_CHANNEL, sent in its transaction; every process empties its cache when it arrives.
 *   The writer's own process forgets the key at once, before answering.
 * - Entries also expire after `PRINCIPAL_TTL_MS`, so `last_used_at` keeps being refreshed. Where
 *   no notification can arrive, they are served for at most the caller's `ttlWithoutListenMs`
 *   (CACHE_TTL_WITHOUT_LISTEN_MS): the bound on how long a revocation made elsewhere takes to
 *   reach this process.
 *
 * Entries are keyed by the `Authorization` header as sent, so a hit costs one map lookup: no
 * parsing and no hash (the hash was the largest cost of a cached retrieve's authentication). Only
 * headers whose key was found valid are stored, so the map holds secrets this process has
 * already been sent, for as long as they stay valid; it is bounded (`MAX_ENTRIES`) like before.
 */
export const PRINCIPAL_TTL_MS = 5_000;
export const PRINCIPALS_CHANNEL = "principals_changed";
const MAX_ENTRIES = 10_000;

export class PrincipalCache extends NotifiedCache<Principal> {
  constructor(db: Database) {
    super(db, {
      channel: PRINCIPALS_CHANNEL,
      onNotify: "clear",
      ttlMs: PRINCIPAL_TTL_MS,
      ttlWithoutListenMs: DEFAULT_CACHE_TTL_WITHOUT_LISTEN_MS,
      maxEntries: MAX_ENTRIES,
    });
  }

  forgetKey(apiKeyId: string): void {
    this.forgetWhere((principal) => principal.apiKeyId === apiKeyId);
  }

  /** A role change or removal applies to the user's keys in this process at once. */
  forgetMember(projectId: string, userId: string): void {
    this.forgetWhere((principal) => principal.projectId === projectId && principal.userId === userId);
  }
}

/** One cache per database, so apps over different databases (tests) never share entries; closed with it. */
export const principalCacheFor = processWide<object, PrincipalCache>("principal-caches", (db) => {
  const cache = new PrincipalCache(db as Database);
  onDatabaseClose(db as Database, () => cache.stop());
  return cache;
});

/** In a revocation's or role change's transaction: every process forgets what it cached once it commits. */
export async function announcePrincipalChange(db: Executor): Promise<void> {
  await rawQuery(db, `select pg_notify('${PRINCIPALS_CHANNEL}', '')`, []);
}
