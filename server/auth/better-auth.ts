import { AsyncLocalStorage } from "node:async_hooks";
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { newId } from "@/server/core/ids";
import { logger } from "@/server/core/logger";
import { isDatabaseFailure } from "@/server/db";
import { accounts, rateLimits, sessions, users, verifications } from "@/server/db/schema";
import type { AppContext } from "@/server/core/app-context";
import { fixedWindowStore } from "./sign-in-limit";

export const AUTH_BASE_PATH = "/api/auth";
export const SESSION_TTL_SECONDS = 30 * 24 * 3600;

/**
 * The client's address as the auth handler resolved it (socket, trusted proxies): the only
 * header better-auth reads an address from. The handler always overwrites or removes it, so a
 * client cannot choose its own.
 */
export const CLIENT_ADDRESS_HEADER = "x-svc-client-address";

/**
 * The first database failure better-auth logged while answering the request run in it. Its
 * session middleware turns a failed session read into its own 401 (and other endpoints into a
 * 500); the auth handler answers 503 instead when one was logged (auth-handler.ts).
 */
export const databaseFailureSeen = new AsyncLocalStorage<{ error?: unknown }>();

export const MIN_PASSWORD_LENGTH = 10;
export const MAX_PASSWORD_LENGTH = 200;

/**
 * better-auth over our database: email + password logins and sessions in HTTP-only,
 * `SameSite=Lax` cookies, `Secure` when the public URL is https. Sign-up through better-auth's
 * own endpoint is off: accounts are created by `server/auth/sign-up.ts`, which enforces who may
 * sign up (the first owner, invitees, or anyone when SIGN_UP=open).
 */
export function createBetterAuth(app: AppContext, secret: string) {
  const { publicUrl } = app.config;
  return betterAuth({
    appName: "Agent service",
    basePath: AUTH_BASE_PATH,
    // Unset PUBLIC_URL: the request's own host (our same-origin check guards every POST first).
    baseURL: publicUrl ?? { allowedHosts: ["*"] },
    secret,
    // Without PUBLIC_URL, the request's own origin: server/http/same-origin.ts has already checked
    // that the Origin header names this host before better-auth sees a POST.
    trustedOrigins: publicUrl ? [publicUrl] : (request) => [request?.headers.get("origin")],
    database: drizzleAdapter(app.db, {
      provider: "pg",
      schema: {
        user: users,
        session: sessions,
        account: accounts,
        verification: verifications,
        rateLimit: rateLimits,
      },
    }),
    // Counters per client address and path in the database, so every instance counts together,
    // in fixed windows (sign-in-limit.ts): "3 per 10 s" as the docs say it.
    rateLimit: { enabled: app.config.authRateLimit, storage: "database", customStorage: fixedWindowStore(app) },
    emailAndPassword: {
      enabled: true,
      disableSignUp: true,
      minPasswordLength: MIN_PASSWORD_LENGTH,
      maxPasswordLength: MAX_PASSWORD_LENGTH,
    },
    session: {
      expiresIn: SESSION_TTL_SECONDS,
      additionalFields: { activeProjectId: { type: "string", required: false, input: false } },
    },
    advanced: {
      database: { generateId: () => newId() },
      ipAddress: { ipAddressHeaders: [CLIENT_ADDRESS_HEADER] },
      useSecureCookies: publicUrl?.startsWith("https://") ?? false,
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax" },
    },
    telemetry: { enabled: false },
    // Into our JSON log lines (silent in tests), not the console.
    logger: {
      log: (level, message, ...args: unknown[]) => {
        const seen = databaseFailureSeen.getStore();
        if (seen && seen.error === undefined) seen.error = args.find(isDatabaseFailure);
        logger[level]({ area: "better-auth" }, message);
      },
    },
  });
}

export type BetterAuth = ReturnType<typeof createBetterAuth>;
