import path from "node:path";
import { z } from "zod";

/** Provider id, key variable, base URL variable. */
const PROVIDER_ENV = [
  ["openai", "OPENAI_API_KEY", "OPENAI_BASE_URL"],
  ["anthropic", "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL"],
  ["gemini", "GOOGLE_GENERATIVE_AI_API_KEY", "GOOGLE_GENERATIVE_AI_BASE_URL"],
  ["mistral", "MISTRAL_API_KEY", "MISTRAL_BASE_URL"],
  ["groq", "GROQ_API_KEY", "GROQ_BASE_URL"],
  ["minimax", "MINIMAX_API_KEY", "MINIMAX_BASE_URL"],
  ["together_ai", "TOGETHER_AI_API_KEY", "TOGETHER_AI_BASE_URL"],
  ["openrouter", "OPENROUTER_API_KEY", "OPENROUTER_BASE_URL"],
] as const;

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
  AGENT_RUN_TIMEOUT_MS: z.coerce.number().int().positive().default(30 * 60_000),
  AGENT_FIRST_TOKEN_TIMEOUT_MS: z.coerce.number().int().positive().default(120_000),
  AGENT_IDLE_TIMEOUT_MS: z.coerce.number().int().positive().default(300_000),
  AGENT_MAX_STEPS: z.coerce.number().int().positive().max(1000).default(50),
  AGENT_KEEPALIVE_MS: z.coerce.number().int().positive().default(15_000),
  ...Object.fromEntries(PROVIDER_ENV.flatMap(([, key, url]) => [[key, z.string().optional()], [url, z.string().url().optional()]])),
});

export interface Config {
  databaseUrl?: string;
  dataDir: string;
  pgliteDir: string;
  adminToken?: string;
  maxBodyBytes: number;
  /** Agent run limits (server/runner/limits.ts). */
  agentRuns: { totalMs: number; firstTokenMs: number; idleMs: number; maxSteps: number; keepaliveMs: number };
  /** The operator's provider keys and base URLs: the last step of connection resolution. */
  providerEnv: Record<string, { key?: string; baseUrl?: string }>;
}


export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ""));
  const parsed = configSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const c = parsed.data;
  return {
    databaseUrl: c.DATABASE_URL,
    dataDir: c.DATA_DIR,
    pgliteDir: c.PGLITE_DIR ?? path.join(c.DATA_DIR, "pglite"),
    adminToken: c.ADMIN_TOKEN,
    maxBodyBytes: c.MAX_BODY_BYTES,
    agentRuns: {
      totalMs: c.AGENT_RUN_TIMEOUT_MS,
      firstTokenMs: c.AGENT_FIRST_TOKEN_TIMEOUT_MS,
      idleMs: c.AGENT_IDLE_TIMEOUT_MS,
      maxSteps: c.AGENT_MAX_STEPS,
      keepaliveMs: c.AGENT_KEEPALIVE_MS,
    },
    providerEnv: Object.fromEntries(
      PROVIDER_ENV.map(([id, key, url]) => [id, { key: (c as Record<string, unknown>)[key] as string | undefined, baseUrl: (c as Record<string, unknown>)[url] as string | undefined }]),
    ),
  };
}
