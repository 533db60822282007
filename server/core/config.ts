import path from "node:path";
import { z } from "zod";

/**
 * Every environment variable the server reads, validated once. The README's configuration
 * table mirrors this schema.
 */
const configSchema = z.object({
  DATABASE_URL: z.string().url().optional(),
  DATA_DIR: z.string().default(".data"),
  PGLITE_DIR: z.string().optional(),
  ADMIN_TOKEN: z.string().min(16, "ADMIN_TOKEN must be at least 16 characters").optional(),
  MAX_BODY_BYTES: z.coerce.number().int().positive().default(1024 * 1024),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).optional(),
  PUBLIC_URL: z
    .string()
    .url()
    .refine((v) => /^https?:\/\//.test(v), "PUBLIC_URL must start with http:// or https://")
    .transform((v) => new URL(v).origin)
    .optional(),
  SIGN_UP: z.enum(["closed", "open"]).default("closed"),
  AUTH_SECRET: z.string().min(32, "AUTH_SECRET must be at least 32 characters").optional(),
  CRON_SECRET: z.string().min(16, "CRON_SECRET must be at least 16 characters").optional(),
  WORKERS: z.enum(["in-process", "off"]).optional(),
  VERCEL: z.string().optional(),
});

export interface Config {
  databaseUrl?: string;
  dataDir: string;
  pgliteDir: string;
  adminToken?: string;
  maxBodyBytes: number;
  /** The origin people reach the app at (`https://agents.example.com`); unset: the request's own. */
  publicUrl?: string;
  /** `closed`: only the first (owner) account and invited people can sign up. */
  signUp: "closed" | "open";
  authSecret?: string;
  cronSecret?: string;
  /** Whether the app process runs the background workers itself. */
  workers: "in-process" | "off";
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ""));
  const parsed = configSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const c = parsed.data;
  if (c.VERCEL && !c.DATABASE_URL) {
    throw new Error(
      "Invalid configuration:\n  DATABASE_URL: the embedded database does not persist on Vercel (each function instance starts empty); set DATABASE_URL to a PostgreSQL database",
    );
  }
  return {
    databaseUrl: c.DATABASE_URL,
    dataDir: c.DATA_DIR,
    pgliteDir: c.PGLITE_DIR ?? path.join(c.DATA_DIR, "pglite"),
    adminToken: c.ADMIN_TOKEN,
    maxBodyBytes: c.MAX_BODY_BYTES,
    publicUrl: c.PUBLIC_URL,
    signUp: c.SIGN_UP,
    authSecret: c.AUTH_SECRET,
    cronSecret: c.CRON_SECRET,
    // A serverless host freezes the process between requests: its cron route does the work.
    workers: c.WORKERS ?? (c.VERCEL ? "off" : "in-process"),
  };
}
