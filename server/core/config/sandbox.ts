import { z } from "zod";

export const sandboxEnv = {
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
};

/** The hosted sandbox provider (server/sandbox/daytona). */
export interface DaytonaSettings {
  apiKey: string;
  apiUrl: string;
  target?: string;
  /** A session's sandbox stops after this many idle minutes (Daytona's auto-stop). */
  idleStopMinutes: number;
}

export interface SandboxConfig {
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
}

export function sandboxConfig(c: z.output<z.ZodObject<typeof sandboxEnv>>): SandboxConfig {
  return {
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
  };
}
