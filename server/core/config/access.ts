import { z } from "zod";
import { parseCspAdditions, type CspAdditions } from "../security-headers";
import { parseTrustedProxies, TrustedProxies } from "../trusted-proxies";
import { invalid } from "./parse";

export const accessEnv = {
  ADMIN_TOKEN: z.string().min(16, "ADMIN_TOKEN must be at least 16 characters").optional(),
  MAX_BODY_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(1024 * 1024),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).optional(),
  PUBLIC_URL: z
    .string()
    .url()
    .refine((v) => /^https?:\/\//.test(v), "PUBLIC_URL must start with http:// or https://")
    .transform((v) => new URL(v).origin)
    .optional(),
  SIGN_UP: z.enum(["closed", "open"]).default("closed"),
  AUTH_SECRET: z.string().min(32, "AUTH_SECRET must be at least 32 characters").optional(),
  TRUSTED_PROXIES: z
    .string()
    .transform((value, ctx) => {
      const parsed = parseTrustedProxies(value);
      return "error" in parsed ? invalid(ctx, parsed.error) : parsed;
    })
    .optional(),
  CRON_SECRET: z.string().min(16, "CRON_SECRET must be at least 16 characters").optional(),
  CSP_EXTRA: z
    .string()
    .transform((value, ctx) => {
      const parsed = parseCspAdditions(value);
      return "error" in parsed ? invalid(ctx, String(parsed.error)) : parsed;
    })
    .optional(),
  VERCEL: z.string().optional(),
};

/** Who reaches the app and how: its address, sign-up, the admin and cron secrets, proxies, body size. */
export interface AccessConfig {
  adminToken?: string;
  maxBodyBytes: number;
  /** The origin people reach the app at (`https://agents.example.com`); unset: the request's own. */
  publicUrl?: string;
  /** `closed`: only the first (owner) account and invited people can sign up. */
  signUp: "closed" | "open";
  authSecret?: string;
  /**
   * Proxies whose `X-Forwarded-For` names the client (TRUSTED_PROXIES); a request from anywhere
   * else is the client its socket says.
   */
  trustedProxies: TrustedProxies;
  /**
   * The hosting platform sets `X-Forwarded-For` itself (VERCEL): where no socket reaches the app
   * (the Next.js route), its last hop names the client.
   */
  platformForwarding: boolean;
  /**
   * better-auth's rate limiter (sign-in: 3 tries per 10 s per client address). Not read from the
   * environment: undefined keeps better-auth's default (on in production); tests turn it on.
   */
  authRateLimit?: boolean;
  cronSecret?: string;
  /** Sources the operator adds to the pages' Content-Security-Policy (CSP_EXTRA; server/core/security-headers.ts). */
  cspAdditions: CspAdditions;
}

export function accessConfig(c: z.output<z.ZodObject<typeof accessEnv>>): AccessConfig {
  return {
    adminToken: c.ADMIN_TOKEN,
    maxBodyBytes: c.MAX_BODY_BYTES,
    publicUrl: c.PUBLIC_URL,
    signUp: c.SIGN_UP,
    authSecret: c.AUTH_SECRET,
    trustedProxies: c.TRUSTED_PROXIES ?? new TrustedProxies([]),
    platformForwarding: Boolean(c.VERCEL),
    cronSecret: c.CRON_SECRET,
    cspAdditions: c.CSP_EXTRA ?? {},
  };
}
