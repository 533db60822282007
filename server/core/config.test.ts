import { describe, expect, it } from "vitest";
import { loadConfig } from "./config";

describe("loadConfig", () => {
  it("defaults: closed sign-up, workers in the app process, no public URL", () => {
    expect(loadConfig({})).toMatchObject({
      signUp: "closed",
      workers: "in-process",
      publicUrl: undefined,
      cronSecret: undefined,
    });
  });

  it("keeps only the origin of PUBLIC_URL and refuses other schemes", () => {
    expect(loadConfig({ PUBLIC_URL: "https://agents.example.com/some/path" }).publicUrl).toBe(
      "https://agents.example.com",
    );
    expect(() => loadConfig({ PUBLIC_URL: "ftp://agents.example.com" })).toThrow(/PUBLIC_URL must start with http/);
  });

  it("refuses the embedded database on Vercel, naming the variable to set", () => {
    expect(() => loadConfig({ VERCEL: "1" })).toThrow(/DATABASE_URL: the embedded database does not persist on Vercel/);
    expect(loadConfig({ VERCEL: "1", DATABASE_URL: "postgres://u:p@db.example.com:5432/agents" }).workers).toBe(
      "after-response",
    );
  });

  it("trusts no proxy by default and refuses a TRUSTED_PROXIES entry that is no address or range", () => {
    expect(loadConfig({}).trustedProxies.entries).toEqual([]);
    expect(loadConfig({ TRUSTED_PROXIES: "10.0.0.0/8, ::1" }).trustedProxies.has("10.1.2.3")).toBe(true);
    expect(() => loadConfig({ TRUSTED_PROXIES: "10.0.0.0/8,lb.internal" })).toThrow(
      /TRUSTED_PROXIES: "lb.internal" is not an IP address or CIDR range/,
    );
  });

  it("names a short secret", () => {
    expect(() => loadConfig({ CRON_SECRET: "short" })).toThrow(/CRON_SECRET must be at least 16 characters/);
    expect(() => loadConfig({ AUTH_SECRET: "short" })).toThrow(/AUTH_SECRET must be at least 32 characters/);
    expect(() => loadConfig({ SIGN_UP: "maybe" })).toThrow(/SIGN_UP/);
  });

  it("caps a code tool call's memory at CODE_TOOL_MEMORY_MB, 512 by default, 32 to 2048", () => {
    expect(loadConfig({}).sandbox.codeToolMemoryMb).toBe(512);
    expect(loadConfig({ CODE_TOOL_MEMORY_MB: "128" }).sandbox.codeToolMemoryMb).toBe(128);
    expect(() => loadConfig({ CODE_TOOL_MEMORY_MB: "16" })).toThrow(/CODE_TOOL_MEMORY_MB must be at least 32/);
    expect(() => loadConfig({ CODE_TOOL_MEMORY_MB: "4096" })).toThrow(/CODE_TOOL_MEMORY_MB must be at most 2048/);
  });

  it("enables the Composio gateway only with a key, and bounds the reference depth", () => {
    expect(loadConfig({}).gateways).toEqual({});
    expect(loadConfig({ COMPOSIO_API_KEY: "ak_1" }).gateways).toEqual({
      composio: { apiKey: "ak_1", baseUrl: "https://backend.composio.dev" },
    });
    expect(
      loadConfig({ COMPOSIO_API_KEY: "ak_1", COMPOSIO_BASE_URL: "http://composio.internal:8080/" }).gateways.composio
        ?.baseUrl,
    ).toBe("http://composio.internal:8080");
    expect(loadConfig({}).agentRuns.referenceMaxDepth).toBe(3);
    expect(() => loadConfig({ AGENT_REFERENCE_MAX_DEPTH: "-1" })).toThrow(/AGENT_REFERENCE_MAX_DEPTH/);
  });
});
