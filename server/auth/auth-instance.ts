import { processWide } from "@/server/core/process-wide";
import type { AppContext } from "@/server/core/app-context";
import { loadAuthSecret } from "./auth-secret";
import { createBetterAuth, type BetterAuth } from "./better-auth";

const instances = processWide<AppContext, { made?: Promise<BetterAuth> }>("better-auth", () => ({}));

/**
 * One better-auth instance per app, shared by the REST and tRPC bundles. Making it reads the
 * secret from the database: when that fails, the next call tries again (a database that was
 * down for a moment must not leave the process refusing every session until it restarts).
 */
export function authFor(app: AppContext): Promise<BetterAuth> {
  const slot = instances(app);
  slot.made ??= loadAuthSecret(app.db, app.config.authSecret).then(
    (secret) => createBetterAuth(app, secret),
    (error: unknown) => {
      slot.made = undefined;
      throw error;
    },
  );
  return slot.made;
}
