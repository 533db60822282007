import type { ResolvedConnection } from "../../providers";

/** Host variables a cloud deployment's own sign-in reads; nothing else of the host passes. */
const CLOUD_ENV: Record<"bedrock" | "vertex", RegExp> = {
  bedrock: /^(AWS_[A-Z0-9_]+|ANTHROPIC_BEDROCK_BASE_URL)$/,
  vertex:
    /^(GOOGLE_APPLICATION_CREDENTIALS|GOOGLE_CLOUD_PROJECT|CLOUD_ML_REGION|ANTHROPIC_VERTEX_PROJECT_ID|ANTHROPIC_VERTEX_BASE_URL|VERTEX_REGION_[A-Z0-9_]+)$/,
};

export interface ClaudeDirs {
  /** HOME and CLAUDE_CONFIG_DIR: the process never reads the host user's configuration. */
  home: string;
  tmp: string;
  /** Retries of a failed model call (AGENT_MAX_RETRIES), as for the core harness. */
  maxRetries: number;
}

/**
 * The whole environment of the Claude Code process. It is built, not inherited: the server's
 * own variables (database URL, secret key, other providers' keys) never reach the child. Only
 * the connection's credential, the deployment's switches and, for a cloud deployment, the host's
 * cloud sign-in variables are passed; telemetry, error reports and auto-update are off.
 */
export function claudeEnv(
  connection: ResolvedConnection,
  dirs: ClaudeDirs,
  hostEnv: Record<string, string | undefined>,
): Record<string, string> {
  const env: Record<string, string> = {
    PATH: hostEnv.PATH ?? "/usr/local/bin:/usr/bin:/bin",
    HOME: dirs.home,
    CLAUDE_CONFIG_DIR: dirs.home,
    TMPDIR: dirs.tmp,
    LANG: "C.UTF-8",
    DISABLE_TELEMETRY: "1",
    DISABLE_ERROR_REPORTING: "1",
    DISABLE_AUTOUPDATER: "1",
    DISABLE_BUG_COMMAND: "1",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    CLAUDE_AGENT_SDK_CLIENT_APP: "agent-service",
    CLAUDE_CODE_MAX_RETRIES: String(dirs.maxRetries),
  };
  switch (connection.deployment) {
    case "direct":
    case "custom":
      if (connection.apiKey) env.ANTHROPIC_API_KEY = connection.apiKey;
      else if (hostEnv.CLAUDE_CODE_OAUTH_TOKEN) env.CLAUDE_CODE_OAUTH_TOKEN = hostEnv.CLAUDE_CODE_OAUTH_TOKEN;
      // Connections hold the API root with its version (`…/v1`, as the AI SDK wants it); Claude
      // Code adds `/v1/messages` itself.
      if (connection.baseUrl) env.ANTHROPIC_BASE_URL = connection.baseUrl.replace(/\/v1\/?$/, "");
      break;
    case "bedrock":
    case "vertex":
      env[connection.deployment === "bedrock" ? "CLAUDE_CODE_USE_BEDROCK" : "CLAUDE_CODE_USE_VERTEX"] = "1";
      for (const [name, value] of Object.entries(hostEnv))
        if (value && CLOUD_ENV[connection.deployment].test(name)) env[name] = value;
      break;
  }
  return env;
}
