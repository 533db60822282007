import { processWide } from "@/server/core/process-wide";
import type { AppContext } from "@/server/core/app-context";
import { loadAuthSecret } from "./auth-secret";
import { createBetterAuth, type BetterAuth } from "./better-auth";

/** One better-auth instance per app, shared by the REST and tRPC bundles. */
export const authFor = processWide<AppContext, Promise<BetterAuth>>("better-auth", async (app) =>
  createBetterAuth(app, await loadAuthSecret(app.db, app.config.authSecret)),
);
