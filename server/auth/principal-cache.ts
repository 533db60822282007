import { processWide } from "@/server/core/process-wide";
import type { Principal } from "@/server/core/principal";
import { rawQuery, type Database, type Executor } from "@/server/db";
import { listen } from "@/server/worker";

/**
 * Resolved keys, kept briefly so an authenticated request costs no key lookup. A revocation or a
 * role change in this process takes effect at once (`forget*`); in other processes at once too,
 * through a NOTIFY on PRINCIPALS_CHANNEL that empties their caches, and within `TTL_MS` at the
 * latest (a notification missed while a listening connection reconnects).
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

  constructor(db?: Database) {
    // Without a listener (it failed to start) the TTL alone bounds the window.
    if (db) listen(db, PRINCIPALS_CHANNEL, () => this.entries.clear()).catch(() => {});
  }

  get(hash: string, now: number): Principal | undefined {
    const entry = this.entries.get(hash);
    if (!entry) return undefined;
    if (entry.expiresAt <= now) {
      this.entries.delete(hash);
      return undefined;
    }
    return entry.principal;
  }

  set(hash: string, principal: Principal, now: number): void {
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(hash, { principal, expiresAt: now + PRINCIPAL_TTL_MS });
  }

  forgetKey(apiKeyId: string): void {
    for (const [hash, entry] of this.entries) if (entry.principal.apiKeyId === apiKeyId) this.entries.delete(hash);
  }

  /** A role change or removal applies to the user's keys in this process at once. */
  forgetMember(projectId: string, userId: string): void {
    for (const [hash, entry] of this.entries) {
      if (entry.principal.projectId === projectId && entry.principal.userId === userId) this.entries.delete(hash);
    }
  }
}

/** One cache per database, so apps over different databases (tests) never share entries. */
export const principalCacheFor = processWide<object, PrincipalCache>(
  "principal-caches",
  (db) => new PrincipalCache(db as Database),
);

/** After a revocation or a role change: every process forgets what it cached (delivered at commit). */
export async function announcePrincipalChange(db: Executor): Promise<void> {
  await rawQuery(db, `select pg_notify('${PRINCIPALS_CHANNEL}', '')`, []);
}
