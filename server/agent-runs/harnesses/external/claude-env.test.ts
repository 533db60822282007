import { describe, expect, it } from "vitest";
import type { ResolvedConnection } from "../../providers";
import { claudeEnv } from "./claude-env";
import { claudeSettings } from "./claude-settings";

const dirs = { home: "/data/external-harness/s-1/home", tmp: "/data/external-harness/s-1/tmp", maxRetries: 2 };
const host = {
  PATH: "/usr/bin",
  HOME: "/root",
  DATABASE_URL: "postgres://secret",
  APP_SECRET_KEY: "k",
  OPENAI_API_KEY: "sk-openai",
  AWS_REGION: "eu-west-1",
  AWS_ACCESS_KEY_ID: "AKIA",
  GOOGLE_APPLICATION_CREDENTIALS: "/etc/gcp.json",
  CLOUD_ML_REGION: "us-east5",
  ANTHROPIC_VERTEX_PROJECT_ID: "proj",
};
const connection = (over: Partial<ResolvedConnection>): ResolvedConnection => ({
  provider: "anthropic",
  model: "sonnet",
  deployment: "direct",
  label: "x",
  ...over,
});

describe("claudeEnv: the child's whole environment", () => {
  it("direct: the key, an isolated HOME and config dir, telemetry and updates off, nothing of the server's own", () => {
    const env = claudeEnv(connection({ apiKey: "sk-ant" }), dirs, host);
    expect(env).toMatchObject({
      ANTHROPIC_API_KEY: "sk-ant",
      HOME: dirs.home,
      CLAUDE_CONFIG_DIR: dirs.home,
      TMPDIR: dirs.tmp,
      DISABLE_TELEMETRY: "1",
      DISABLE_AUTOUPDATER: "1",
      DISABLE_ERROR_REPORTING: "1",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      CLAUDE_CODE_MAX_RETRIES: "2",
      PATH: "/usr/bin",
    });
    for (const name of [
      "DATABASE_URL",
      "APP_SECRET_KEY",
      "OPENAI_API_KEY",
      "AWS_ACCESS_KEY_ID",
      "ANTHROPIC_BASE_URL",
      "CLAUDE_CODE_USE_BEDROCK",
    ])
      expect(env).not.toHaveProperty(name);
  });

  it("custom: the base URL without the /v1 the AI SDK uses (Claude Code adds it)", () => {
    expect(
      claudeEnv(connection({ deployment: "custom", apiKey: "k", baseUrl: "https://llm.example.com/v1" }), dirs, host),
    ).toMatchObject({ ANTHROPIC_BASE_URL: "https://llm.example.com", ANTHROPIC_API_KEY: "k" });
    expect(
      claudeEnv(connection({ deployment: "custom", baseUrl: "https://gw.example.com/anthropic" }), dirs, host)
        .ANTHROPIC_BASE_URL,
    ).toBe("https://gw.example.com/anthropic");
  });

  it("bedrock: the switch and the host's AWS sign-in, no Anthropic key", () => {
    const env = claudeEnv(connection({ deployment: "bedrock" }), dirs, host);
    expect(env).toMatchObject({ CLAUDE_CODE_USE_BEDROCK: "1", AWS_REGION: "eu-west-1", AWS_ACCESS_KEY_ID: "AKIA" });
    for (const name of [
      "ANTHROPIC_API_KEY",
      "GOOGLE_APPLICATION_CREDENTIALS",
      "CLAUDE_CODE_USE_VERTEX",
      "DATABASE_URL",
    ])
      expect(env).not.toHaveProperty(name);
  });

  it("vertex: the switch, region, project and the host's Google credentials", () => {
    const env = claudeEnv(connection({ deployment: "vertex" }), dirs, host);
    expect(env).toMatchObject({
      CLAUDE_CODE_USE_VERTEX: "1",
      CLOUD_ML_REGION: "us-east5",
      ANTHROPIC_VERTEX_PROJECT_ID: "proj",
      GOOGLE_APPLICATION_CREDENTIALS: "/etc/gcp.json",
    });
    for (const name of ["AWS_ACCESS_KEY_ID", "CLAUDE_CODE_USE_BEDROCK", "ANTHROPIC_API_KEY"])
      expect(env).not.toHaveProperty(name);
  });
});

describe("claudeSettings", () => {
  it("renders harness.permissions as Claude Code's settings file", () => {
    expect(
      claudeSettings({
        default_mode: "acceptEdits",
        allow: ["mcp__agenta-tools__lookup"],
        ask: ["Bash(git push:*)"],
        deny: ["WebFetch"],
      }),
    ).toEqual({
      permissions: {
        defaultMode: "acceptEdits",
        allow: ["mcp__agenta-tools__lookup"],
        ask: ["Bash(git push:*)"],
        deny: ["WebFetch"],
      },
    });
    expect(claudeSettings({ default_mode: null, allow: [], ask: [], deny: [] })).toEqual({
      permissions: { allow: [], ask: [], deny: [] },
    });
  });
});
