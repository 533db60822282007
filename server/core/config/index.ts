import { z } from "zod";
import { accessConfig, accessEnv, type AccessConfig } from "./access";
import { agentRunsConfig, agentRunsEnv, type AgentRunsConfig } from "./agent-runs";
import { automationsConfig, automationsEnv, type AutomationsConfig } from "./automations";
import { databaseConfig, databaseEnv, type DatabaseConfig } from "./database";
import { outboundConfig, outboundEnv, type OutboundConfig } from "./outbound";
import { parseEnv } from "./parse";
import { sandboxConfig, sandboxEnv, type SandboxConfig } from "./sandbox";
import { tracingConfig, tracingEnv, type TracingConfig } from "./tracing";
import { workersConfig, workersEnv, type WorkersConfig } from "./workers";

export { DEFAULT_CACHE_TTL_WITHOUT_LISTEN_MS } from "./database";
export { DEFAULT_WEBHOOK_RETRY_SCHEDULE_MS } from "./outbound";
export type { DaytonaSettings } from "./sandbox";
export type { TracingConfig } from "./tracing";

/**
 * Every environment variable the server reads, validated once: one part per concern, each with
 * its variables and the slice of `Config` they make. The table of docs/configuration.md mirrors
 * this schema.
 */
const configSchema = z.object({
  ...databaseEnv,
  ...accessEnv,
  ...workersEnv,
  ...agentRunsEnv,
  ...automationsEnv,
  ...sandboxEnv,
  ...outboundEnv,
  ...tracingEnv,
});

export interface Config
  extends
    DatabaseConfig,
    AccessConfig,
    WorkersConfig,
    AgentRunsConfig,
    AutomationsConfig,
    SandboxConfig,
    OutboundConfig {
  tracing: TracingConfig;
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const c = parseEnv(configSchema, env);
  return {
    ...databaseConfig(c),
    ...accessConfig(c),
    ...workersConfig(c),
    ...agentRunsConfig(c),
    ...automationsConfig(c),
    ...sandboxConfig(c),
    ...outboundConfig(c),
    ...tracingConfig(c),
  };
}
