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

export const agentRunsEnv = {
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
  MCP_CONNECT_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  MCP_CALL_TIMEOUT_MS: z.coerce.number().int().positive().default(120_000),
  EXTERNAL_HARNESS: z.enum(["enabled", "disabled"]).default("disabled"),
  EXTERNAL_HARNESS_IDLE_MS: z.coerce.number().int().positive().default(300_000),
  EXTERNAL_HARNESS_MAX_SESSIONS: z.coerce.number().int().positive().max(1000).default(8),
  EXTERNAL_HARNESS_CLOUD: z.enum(["bedrock", "vertex"]).optional(),
  ...(Object.fromEntries(
    PROVIDER_ENV.flatMap(([, key, url]) => [
      [key, z.string().optional()],
      [url, z.string().url().optional()],
    ]),
  ) as Record<string, z.ZodOptional<z.ZodString>>),
};

/** How agents run: limits, the operator's provider keys, tool gateways, MCP servers, the external harness. */
export interface AgentRunsConfig {
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
  /** User MCP servers: time to connect and list tools before the run, time per tool call. */
  mcp: { connectTimeoutMs: number; callTimeoutMs: number };
  /**
   * The external harness (Claude Code as a host process): off unless the operator enables it;
   * how long a session's process stays warm between turns, how many stay warm at once, and the
   * cloud deployment (`bedrock`, `vertex`) a `self_managed` connection signs in to.
   */
  externalHarness: { enabled: boolean; idleMs: number; maxSessions: number; cloud?: "bedrock" | "vertex" };
  /** The operator's provider keys and base URLs: the last step of connection resolution. */
  providerEnv: Record<string, { key?: string; baseUrl?: string }>;
}

export function agentRunsConfig(c: z.output<z.ZodObject<typeof agentRunsEnv>>): AgentRunsConfig {
  return {
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
    mcp: { connectTimeoutMs: c.MCP_CONNECT_TIMEOUT_MS, callTimeoutMs: c.MCP_CALL_TIMEOUT_MS },
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
  };
}
