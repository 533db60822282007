import { processWide } from "@/server/core/process-wide";
import type { Principal } from "@/server/core/principal";

/**
 * Resolved keys, kept briefly so an authenticated request costs no key lookup. A revocation or a
 * role change in this process takes effect at once (`forget*`); one made by another process within
 * `TTL_MS`.
 */
export const PRINCIPAL_TTL_MS = 5_000;
const MAX_ENTRIES = 10_000;

interface Entry {
  principal: Principal;
  expiresAt: number;
}

export class PrincipalCache {
  private readonly entries = new Map<string, Entry>();

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
export const principalCacheFor = processWide<object, PrincipalCache>("principal-caches", () => new PrincipalCache());
