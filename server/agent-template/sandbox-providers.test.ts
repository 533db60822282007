import { describe, expect, it } from "vitest";
import { enabledSandboxProviders, sandboxProviderProblems, sandboxRefusal } from "./sandbox-providers";

describe("enabledSandboxProviders", () => {
  it("defaults to local", () => {
    expect(enabledSandboxProviders({})).toEqual(["local"]);
    expect(enabledSandboxProviders({ SANDBOX_PROVIDERS: " " })).toEqual(["local"]);
  });

  it("reads a comma list, trimming and de-duplicating", () => {
    expect(
      enabledSandboxProviders({ SANDBOX_PROVIDERS: " local , daytona_sandbox,local", DAYTONA_API_KEY: "k" }),
    ).toEqual(["local", "daytona_sandbox"]);
  });

  it("enables daytona_sandbox only with DAYTONA_API_KEY", () => {
    expect(enabledSandboxProviders({ SANDBOX_PROVIDERS: "local,daytona_sandbox" })).toEqual(["local"]);
    expect(enabledSandboxProviders({ SANDBOX_PROVIDERS: "daytona_sandbox", DAYTONA_API_KEY: "" })).toEqual([]);
    expect(enabledSandboxProviders({ SANDBOX_PROVIDERS: "daytona_sandbox", DAYTONA_API_KEY: "k" })).toEqual([
      "daytona_sandbox",
    ]);
  });

  it("ignores unknown names", () => {
    expect(enabledSandboxProviders({ SANDBOX_PROVIDERS: "local,e2b" })).toEqual(["local"]);
  });
});

describe("sandboxRefusal", () => {
  it("accepts an enabled provider", () => {
    expect(sandboxRefusal("local", {})).toBeNull();
    expect(
      sandboxRefusal("daytona_sandbox", { SANDBOX_PROVIDERS: "local,daytona_sandbox", DAYTONA_API_KEY: "k" }),
    ).toBeNull();
  });

  it("refuses a provider the deployment has not enabled", () => {
    expect(sandboxRefusal("daytona_sandbox", {})).toBe(
      'sandbox.kind "daytona_sandbox" is not enabled in this deployment; enabled: local',
    );
    expect(sandboxRefusal("daytona_sandbox", { SANDBOX_PROVIDERS: "local,daytona_sandbox" })).toBe(
      'sandbox.kind "daytona_sandbox" is not enabled in this deployment; enabled: local',
    );
  });

  it("refuses local when the deployment lists only a hosted provider", () => {
    expect(sandboxRefusal("local", { SANDBOX_PROVIDERS: "daytona_sandbox" })).toBe(
      'sandbox.kind "local" is not enabled in this deployment; enabled: none',
    );
  });
});

describe("sandboxProviderProblems", () => {
  it("reports unknown names and missing settings", () => {
    expect(sandboxProviderProblems({ SANDBOX_PROVIDERS: "local,e2b,daytona_sandbox" })).toEqual([
      'SANDBOX_PROVIDERS lists unknown provider "e2b"; known: local, daytona_sandbox',
      'SANDBOX_PROVIDERS lists "daytona_sandbox" but DAYTONA_API_KEY is not set',
    ]);
  });

  it("is quiet for a sound configuration", () => {
    expect(sandboxProviderProblems({})).toEqual([]);
  });
});
