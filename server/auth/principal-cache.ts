import { DEFAULT_CACHE_TTL_WITHOUT_LISTEN_MS } from "@/server/core/config";
import { processWide } from "@/server/core/process-wide";
import type { Principal } from "@/server/core/principal";
import { onDatabaseClose, rawQuery, type Database, type Executor } from "@/server/db";
import { listenForChanges, type ChangeListener } from "@/server/worker";

/**
 * Resolved keys, so an authenticated request costs no key lookup. Coherent like the revision
 * cache (server/versioning/cache/README.md), through the same kind of listener:
 *
 * - A revocation or a role change or removal announces itself with a NOTIFY on
 *   PRINCIPALS_CHANNEL, sent in its transaction; every process empties its cache when it arrives.
 *   The writer's own process forgets the key at once, before answering.
 * - A lookup that began before an invalidation is not stored (a generation count): the key read
 *   before the revocation committed would otherwise be cached after the revocation emptied it.
 * - A process that loses its listening connection empties its cache and neither answers from it
 *   nor stores until it listens again, so no missed notification leaves a revoked key usable.
 *
 * Entries also expire after `PRINCIPAL_TTL_MS`, so `last_used_at` keeps being refreshed. Where no
 * notification can arrive (a transaction pooler without DATABASE_DIRECT_URL), entries are served
 * for at most the caller's `ttlWithoutListenMs` (CACHE_TTL_WITHOUT_LISTEN_MS): the bound on how
 * long a revocation made elsewhere takes to reach this process.
 *
 * Entries are keyed by the `Authorization` header as sent, so a hit costs one map lookup: no
 * parsing and no hash (the hash was the largest cost of a cached retrieve's authentication). Only
 * headers whose key was found valid are stored, so the map holds secrets this process has
 * already been sent, for as long as they stay valid; it is bounded (`MAX_ENTRIES`) like before.
 */
export const PRINCIPAL_TTL_MS = 5_000;
export const PRINCIPALS_CHANNEL = "principals_changed";
const MAX_ENTRIES = 10_000;

interface Entry {
  principal: Principal;
  expiresAt: number;
}

export class PrincipalCache {
  private readonly entries = new Map<string, Entry>();
  private generation = 0;
  private readonly listener: ChangeListener;

  constructor(db: Database) {
    this.listener = listenForChanges(db, PRINCIPALS_CHANNEL, {
      onChange: () => this.clear(),
      onListening: () => this.clear(),
      onLost: () => this.clear(),
    });
  }

  get serving(): boolean {
    return this.listener.listening || this.listener.mode === "expiry";
  }

  get size(): number {
    return this.entries.size;
  }

  /** `header`: the `Authorization` header as sent. */
  get(header: string, now: number): Principal | undefined {
    if (!this.serving) return undefined;
    const entry = this.entries.get(header);
    if (!entry) return undefined;
    if (entry.expiresAt <= now) {
      this.entries.delete(header);
      return undefined;
    }
    return entry.principal;
  }

  /** Taken before the lookup whose principal `set` stores. */
  ticket(): number {
    return this.generation;
  }

  set(
    header: string,
    principal: Principal,
    now: number,
    ticket: number,
    ttlWithoutListenMs = DEFAULT_CACHE_TTL_WITHOUT_LISTEN_MS,
  ): void {
    if (!this.serving || ticket !== this.generation) return;
    const ttl = this.listener.mode === "expiry" ? Math.min(PRINCIPAL_TTL_MS, ttlWithoutListenMs) : PRINCIPAL_TTL_MS;
    if (ttl <= 0) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(header, { principal, expiresAt: now + ttl });
  }

  forgetKey(apiKeyId: string): void {
    this.generation++;
    for (const [header, entry] of this.entries) if (entry.principal.apiKeyId === apiKeyId) this.entries.delete(header);
  }

  /** A role change or removal applies to the user's keys in this process at once. */
  forgetMember(projectId: string, userId: string): void {
    this.generation++;
    for (const [header, entry] of this.entries) {
      if (entry.principal.projectId === projectId && entry.principal.userId === userId) this.entries.delete(header);
    }
  }

  stop(): Promise<void> {
    this.clear();
    return this.listener.stop();
  }

  private clear(): void {
    this.generation++;
    this.entries.clear();
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
