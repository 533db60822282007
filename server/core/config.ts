import path from "node:path";
import { z } from "zod";
import { resolveDatabaseUrls, type PoolerMode } from "@/server/db/pooler";
import { parseAllowlist, type AllowlistEntry } from "@/server/egress/allowlist";
import { parseDurationList } from "./durations";
import { parseSecretKey } from "./secret-key";
import { parseTrustedProxies, TrustedProxies } from "./trusted-proxies";

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

/** How long a cache that cannot listen for changes serves an answer (CACHE_TTL_WITHOUT_LISTEN_MS). */
export const DEFAULT_CACHE_TTL_WITHOUT_LISTEN_MS = 1_000;

/**
 * Every environment variable the server reads, validated once. The table of
 * docs/configuration.md mirrors this schema.
 */
const configSchema = z.object({
  DATABASE_URL: z.string().url().optional(),
  DATABASE_DIRECT_URL: z.string().url().optional(),
  DATABASE_POOLER: z.enum(["transaction", "none"]).optional(),
  CACHE_TTL_WITHOUT_LISTEN_MS: z.coerce.number().int().min(0).default(DEFAULT_CACHE_TTL_WITHOUT_LISTEN_MS),
  DATA_DIR: z.string().default(".data"),
  PGLITE_DIR: z.string().optional(),
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
  WORKERS: z.enum(["in-process", "after-response", "off"]).optional(),
  WORK_AFTER_RESPONSE_MS: z.coerce.number().int().positive().default(10_000),
  VERCEL: z.string().optional(),
  AGENT_RUN_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(30 * 60_000),
  AGENT_FIRST_TOKEN_TIMEOUT_MS: z.coerce.number().int().positive().default(120_000),
  AGENT_IDLE_TIMEOUT_MS: z.coerce.number().int().positive().default(300_000),
  AGENT_MAX_STEPS: z.coerce.number().int().positive().max(1000).default(50),
  AGENT_MAX_RETRIES: z.coerce.number().int().min(0).max(10).default(2),
  AGENT_KEEPALIVE_MS: z.coerce.number().int().positive().default(15_000),
  AGENT_TRACE_CONTENT: z.enum(["true", "false"]).default("true"),
  AGENT_REFERENCE_MAX_DEPTH: z.coerce.number().int().min(0).max(20).default(3),
  AGENT_RUN_LEASE_MS: z.coerce.number().int().min(1_000).default(30_000),
  AGENT_APPROVAL_TTL_MS: z.coerce
    .number()
    .int()
    .min(1_000)
    .default(7 * 24 * 3_600_000),
  COMPOSIO_API_KEY: z.string().optional(),
  COMPOSIO_BASE_URL: z.string().url().default("https://backend.composio.dev"),
  SANDBOX_WORKSPACE_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(20 * 1024 * 1024),
  SANDBOX_WORKSPACE_IDLE_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(7 * 24 * 3_600_000),
  SANDBOX_COMMAND_TIMEOUT_MS: z.coerce.number().int().positive().default(30_000),
  SANDBOX_PROVIDERS: z.string().optional(),
  DAYTONA_API_KEY: z.string().optional(),
  DAYTONA_API_URL: z.string().url().default("https://app.daytona.io/api"),
  DAYTONA_TARGET: z.string().optional(),
  DAYTONA_IDLE_STOP_MINUTES: z.coerce.number().int().min(1, "DAYTONA_IDLE_STOP_MINUTES must be at least 1").default(15),
  TOOL_RESULT_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(64 * 1024),
  CODE_TOOL_MEMORY_MB: z.coerce
    .number()
    .int()
    .min(32, "CODE_TOOL_MEMORY_MB must be at least 32")
    .max(2048, "CODE_TOOL_MEMORY_MB must be at most 2048")
    .default(512),
  MCP_CONNECT_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  REVISION_CACHE_MAX_ENTRIES: z.coerce.number().int().min(0).default(10_000),
  REVISION_CACHE_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(0)
    .default(64 * 1024 * 1024),
  REVISION_WATCH_KEEPALIVE_MS: z.coerce.number().int().positive().default(15_000),
  MCP_CALL_TIMEOUT_MS: z.coerce.number().int().positive().default(120_000),
  EXTERNAL_HARNESS: z.enum(["enabled", "disabled"]).default("disabled"),
  EXTERNAL_HARNESS_IDLE_MS: z.coerce.number().int().positive().default(300_000),
  EXTERNAL_HARNESS_MAX_SESSIONS: z.coerce.number().int().positive().max(1000).default(8),
  EXTERNAL_HARNESS_CLOUD: z.enum(["bedrock", "vertex"]).optional(),
  ...Object.fromEntries(
    PROVIDER_ENV.flatMap(([, key, url]) => [
      [key, z.string().optional()],
      [url, z.string().url().optional()],
    ]),
  ),
  APP_SECRET_KEY: z
    .string()
    .transform(
      (value, ctx) => parseSecretKey(value) ?? invalid(ctx, "APP_SECRET_KEY must be 32 bytes, base64 or hex encoded"),
    )
    .optional(),
  EGRESS_ALLOWLIST: z
    .string()
    .transform((value, ctx) => {
      const parsed = parseAllowlist(value);
      return "error" in parsed ? invalid(ctx, parsed.error) : parsed.entries;
    })
    .optional(),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().positive().max(120_000).default(10_000),
  WEBHOOK_RETRY_SCHEDULE: z
    .string()
    .transform(
      (value, ctx) =>
        parseDurationList(value) ??
        invalid(ctx, "WEBHOOK_RETRY_SCHEDULE must be a comma-separated list of durations such as 0,5s,5m,30m,2h"),
    )
    .optional(),
  WEBHOOK_DISABLE_AFTER: z
    .string()
    .transform(
      (value, ctx) =>
        parseDurationList(value)?.[0] ?? invalid(ctx, "WEBHOOK_DISABLE_AFTER must be a duration such as 5d or 12h"),
    )
    .optional(),
  TRACING_MAX_BODY_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(10 * 1024 * 1024),
  TRACING_MAX_BACKLOG_SPANS: z.coerce.number().int().positive().default(500_000),
  TRACING_PARTITION_PERIOD: z.enum(["day", "week"]).default("week"),
  TRACING_RETENTION_DAYS: z.coerce.number().int().positive().optional(),
});

function invalid(ctx: z.RefinementCtx, message: string): never {
  ctx.addIssue({ code: "custom", message });
  return z.NEVER;
}

/** Svix's schedule: immediately, then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (in ms). */
export const DEFAULT_WEBHOOK_RETRY_SCHEDULE_MS = [
  0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
];

export interface Config {
  /** The app's pool; without the `pgbouncer` marker, which only says it is a transaction pooler. */
  databaseUrl?: string;
  /** `transaction`: DATABASE_URL is a transaction-mode pooler (server/db/README.md, "Behind a pooler"). */
  databasePooler: PoolerMode;
  /** Sessions of their own (migrations, LISTEN) when DATABASE_URL is a transaction pooler. */
  databaseDirectUrl?: string;
  /**
   * How long the revision and API key caches serve an answer when they cannot listen for changes
   * (a transaction pooler without DATABASE_DIRECT_URL); 0 turns them off there.
   */
  cacheTtlWithoutListenMs: number;
  dataDir: string;
  pgliteDir: string;
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
  /**
   * Whether the app process runs the background workers itself: `in-process` loops,
   * `after-response` (serverless) a bounded drain after each answer that may have queued work,
   * `off` neither (separate `npm run worker` processes, or only the cron route).
   */
  workers: "in-process" | "after-response" | "off";
  /** `after-response`: how long a drain may keep starting work after an answer (below the function's time limit). */
  workAfterResponseMs: number;
  /** Agent run limits (RunLimits in server/agent-runs/run-types.ts). */
  agentRuns: {
    totalMs: number;
    firstTokenMs: number;
    idleMs: number;
    maxSteps: number;
    maxRetries: number;
    keepaliveMs: number;
    traceContent: boolean;
    /** How deep reference tools may nest runs (a run a client started is depth 0). */
    referenceMaxDepth: number;
    /** How long a run's lease lasts without a heartbeat before the sweep ends it as interrupted. */
    leaseMs: number;
    /** How long an approval request can be answered; a later answer is refused and the model told. */
    approvalTtlMs: number;
  };
  /** Integration gateways for `gateway` tools; a provider is present only when configured. */
  gateways: { composio?: { apiKey: string; baseUrl: string } };
  /**
   * Sandboxes: the `local` workspace's size cap, the idle expiry of a workspace, the time limit
   * of a bash command or code tool call, the tool result cap, the memory cap of a code tool call;
   * the providers the deployment lists (SANDBOX_PROVIDERS) and Daytona's settings when its key is set.
   */
  sandbox: {
    workspaceMaxBytes: number;
    workspaceIdleMs: number;
    commandTimeoutMs: number;
    toolResultMaxBytes: number;
    codeToolMemoryMb: number;
    providers?: string;
    daytona?: DaytonaSettings;
  };
  /** User MCP servers: time to connect and list tools before the run, time per tool call. */
  mcp: { connectTimeoutMs: number; callTimeoutMs: number };
  /** The in-process cache of resolved retrieves (0 entries turns it off) and the watch stream's keepalive. */
  revisionCache: { maxEntries: number; maxBytes: number; watchKeepaliveMs: number };
  /**
   * The external harness (Claude Code as a host process): off unless the operator enables it;
   * how long a session's process stays warm between turns, how many stay warm at once, and the
   * cloud deployment (`bedrock`, `vertex`) a `self_managed` connection signs in to.
   */
  externalHarness: { enabled: boolean; idleMs: number; maxSessions: number; cloud?: "bedrock" | "vertex" };
  /** The operator's provider keys and base URLs: the last step of connection resolution. */
  providerEnv: Record<string, { key?: string; baseUrl?: string }>;
  /** 32-byte key that seals secrets at rest; absent: a key file under dataDir (server/encryption). */
  secretKey?: Buffer;
  /** Hosts, IPs and CIDRs that user-supplied URLs may reach although they are private (server/egress). */
  egressAllowlist: AllowlistEntry[];
  /**
   * Extra CA certificates (PEM) trusted for egress. Not read from the environment (deployments
   * use NODE_EXTRA_CA_CERTS); tests that run an HTTPS receiver in-process set it.
   */
  egressCa?: string[];
  webhookTimeoutMs: number;
  /** Delay before each attempt of a delivery, in ms; its length is the number of attempts. */
  webhookRetryScheduleMs: number[];
  /** A subscription whose deliveries have all failed for this long is stopped. */
  webhookDisableAfterMs: number;
  tracing: TracingConfig;
}

/** The hosted sandbox provider (server/sandbox/daytona). */
export interface DaytonaSettings {
  apiKey: string;
  apiUrl: string;
  target?: string;
  /** A session's sandbox stops after this many idle minutes (Daytona's auto-stop). */
  idleStopMinutes: number;
}

export interface TracingConfig {
  /** Largest span ingest or OTLP body, compressed or not, and after decompression. */
  maxBodyBytes: number;
  /** Past this many spans waiting in the ingest queue, ingest answers 429 with Retry-After. */
  maxBacklogSpans: number;
  partitionPeriod: "day" | "week";
  /** Whole partitions older than this are dropped; unset keeps spans forever. */
  retentionDays?: number;
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
  if (!c.DATABASE_URL && (c.DATABASE_DIRECT_URL || c.DATABASE_POOLER)) {
    throw new Error(
      "Invalid configuration:\n  DATABASE_URL: DATABASE_DIRECT_URL and DATABASE_POOLER describe a PostgreSQL DATABASE_URL; set it too, or unset them for the embedded database",
    );
  }
  const database = c.DATABASE_URL
    ? resolveDatabaseUrls(c.DATABASE_URL, c.DATABASE_POOLER, c.DATABASE_DIRECT_URL)
    : { url: undefined, pooler: "none" as const, directUrl: undefined };
  return {
    databaseUrl: database.url,
    databasePooler: database.pooler,
    databaseDirectUrl: database.directUrl,
    cacheTtlWithoutListenMs: c.CACHE_TTL_WITHOUT_LISTEN_MS,
    dataDir: c.DATA_DIR,
    pgliteDir: c.PGLITE_DIR ?? path.join(c.DATA_DIR, "pglite"),
    adminToken: c.ADMIN_TOKEN,
    maxBodyBytes: c.MAX_BODY_BYTES,
    publicUrl: c.PUBLIC_URL,
    signUp: c.SIGN_UP,
    authSecret: c.AUTH_SECRET,
    trustedProxies: c.TRUSTED_PROXIES ?? new TrustedProxies([]),
    platformForwarding: Boolean(c.VERCEL),
    cronSecret: c.CRON_SECRET,
    // A serverless host freezes the process between requests: the work an answer queued is done
    // right after it, and the cron route picks up the rest.
    workers: c.WORKERS ?? (c.VERCEL ? "after-response" : "in-process"),
    workAfterResponseMs: c.WORK_AFTER_RESPONSE_MS,
    agentRuns: {
      totalMs: c.AGENT_RUN_TIMEOUT_MS,
      firstTokenMs: c.AGENT_FIRST_TOKEN_TIMEOUT_MS,
      idleMs: c.AGENT_IDLE_TIMEOUT_MS,
      maxSteps: c.AGENT_MAX_STEPS,
      maxRetries: c.AGENT_MAX_RETRIES,
      keepaliveMs: c.AGENT_KEEPALIVE_MS,
      traceContent: c.AGENT_TRACE_CONTENT === "true",
      referenceMaxDepth: c.AGENT_REFERENCE_MAX_DEPTH,
      leaseMs: c.AGENT_RUN_LEASE_MS,
      approvalTtlMs: c.AGENT_APPROVAL_TTL_MS,
    },
    gateways: c.COMPOSIO_API_KEY
      ? { composio: { apiKey: c.COMPOSIO_API_KEY, baseUrl: c.COMPOSIO_BASE_URL.replace(/\/+$/, "") } }
      : {},
    sandbox: {
      workspaceMaxBytes: c.SANDBOX_WORKSPACE_MAX_BYTES,
      workspaceIdleMs: c.SANDBOX_WORKSPACE_IDLE_MS,
      commandTimeoutMs: c.SANDBOX_COMMAND_TIMEOUT_MS,
      toolResultMaxBytes: c.TOOL_RESULT_MAX_BYTES,
      codeToolMemoryMb: c.CODE_TOOL_MEMORY_MB,
      providers: c.SANDBOX_PROVIDERS,
      daytona: c.DAYTONA_API_KEY
        ? {
            apiKey: c.DAYTONA_API_KEY,
            apiUrl: c.DAYTONA_API_URL.replace(/\/+$/, ""),
            target: c.DAYTONA_TARGET,
            idleStopMinutes: c.DAYTONA_IDLE_STOP_MINUTES,
          }
        : undefined,
    },
    mcp: { connectTimeoutMs: c.MCP_CONNECT_TIMEOUT_MS, callTimeoutMs: c.MCP_CALL_TIMEOUT_MS },
    revisionCache: {
      maxEntries: c.REVISION_CACHE_MAX_ENTRIES,
      maxBytes: c.REVISION_CACHE_MAX_BYTES,
      watchKeepaliveMs: c.REVISION_WATCH_KEEPALIVE_MS,
    },
    externalHarness: {
      enabled: c.EXTERNAL_HARNESS === "enabled",
      idleMs: c.EXTERNAL_HARNESS_IDLE_MS,
      maxSessions: c.EXTERNAL_HARNESS_MAX_SESSIONS,
      cloud: c.EXTERNAL_HARNESS_CLOUD,
    },
    providerEnv: Object.fromEntries(
      PROVIDER_ENV.map(([id, key, url]) => [
        id,
        {
          key: (c as Record<string, unknown>)[key] as string | undefined,
          baseUrl: (c as Record<string, unknown>)[url] as string | undefined,
        },
      ]),
    ),
    secretKey: c.APP_SECRET_KEY,
    egressAllowlist: c.EGRESS_ALLOWLIST ?? [],
    webhookTimeoutMs: c.WEBHOOK_TIMEOUT_MS,
    webhookRetryScheduleMs: c.WEBHOOK_RETRY_SCHEDULE ?? DEFAULT_WEBHOOK_RETRY_SCHEDULE_MS,
    webhookDisableAfterMs: c.WEBHOOK_DISABLE_AFTER ?? 5 * 24 * 3_600_000,
    tracing: {
      maxBodyBytes: c.TRACING_MAX_BODY_BYTES,
      maxBacklogSpans: c.TRACING_MAX_BACKLOG_SPANS,
      partitionPeriod: c.TRACING_PARTITION_PERIOD,
      retentionDays: c.TRACING_RETENTION_DAYS,
    },
  };
}
