import type { AppContext } from "@/server/core/app-context";
import { createGuardedFetch } from "@/server/egress";

const fetchers = new WeakMap<AppContext["config"], typeof globalThis.fetch>();

/** One guarded fetch (and so one connection pool) per configuration, shared by every delivery. */
export function webhookFetch(app: AppContext): typeof globalThis.fetch {
  let guarded = fetchers.get(app.config);
  if (!guarded) {
    guarded = createGuardedFetch({ allowlist: app.config.egressAllowlist, ca: app.config.egressCa });
    fetchers.set(app.config, guarded);
  }
  return guarded;
}
