import { createGuardedFetch, type AllowlistEntry } from "@/server/egress";

const cache = new WeakMap<AllowlistEntry[], typeof globalThis.fetch>();

/** One egress-guarded fetch (and connection pool) per allowlist, shared by every run. */
export function guardedFetchFor(allowlist: AllowlistEntry[]): typeof globalThis.fetch {
  let fetch = cache.get(allowlist);
  if (!fetch) {
    fetch = createGuardedFetch({ allowlist });
    cache.set(allowlist, fetch);
  }
  return fetch;
}
