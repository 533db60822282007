import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveModelName } from "@/server/agent-runs";
import { loadConfig } from "@/server/core/config";
import { isAppError } from "@/server/core/errors";
import { createTestApp, type TestApp } from "../helpers/test-app";

const OPERATOR_BASE_URL = "http://127.0.0.1:9/v1";
let app: TestApp;
let key: string;
let projectId: string;

beforeAll(async () => {
  // The custom provider's URL is on loopback, which the egress guard refuses unless allowlisted.
  app = await createTestApp({
    egressAllowlist: loadConfig({ EGRESS_ALLOWLIST: "127.0.0.1" }).egressAllowlist,
    providerEnv: { ...loadConfig({}).providerEnv, openai: { key: "sk-operator", baseUrl: OPERATOR_BASE_URL } },
  });
  ({ key, projectId } = await app.newProject());
  const stored = await app.call("POST", "/api/vault/v1/secrets/", {
    key,
    body: {
      header: { name: "Local models" },
      secret: {
        kind: "custom_provider",
        data: {
          kind: "custom",
          provider: { url: "http://127.0.0.1:11434/v1" },
          models: [{ slug: "meta-llama/Llama-3.1-8B" }],
        },
      },
    },
  });
  expect(stored.status, JSON.stringify(stored.body)).toBe(201);
});
afterAll(() => app.close());

const resolve = (model: string, connection?: string) => resolveModelName(app.context, projectId, model, connection);

describe("resolveModelName: a model named in one string, as judges, prompts, triage and the optimizer name theirs", () => {
  it("splits provider/model on a known provider and reaches the operator's key", async () => {
    const resolved = await resolve("openai/gpt-5-mini");
    expect(resolved).toMatchObject({ provider: "openai", model: "gpt-5-mini", apiKey: "sk-operator" });
  });

  it("keeps a bare id whose prefix is no provider whole, and finds the custom provider that lists it", async () => {
    const resolved = await resolve("meta-llama/Llama-3.1-8B");
    expect(resolved).toMatchObject({ provider: "custom", deployment: "custom", model: "meta-llama/Llama-3.1-8B" });
    expect(resolved.baseUrl).toBe("http://127.0.0.1:11434/v1");
  });

  it("goes through the stored connection a slug names", async () => {
    const resolved = await resolve("meta-llama/Llama-3.1-8B", "local-models");
    expect(resolved).toMatchObject({ provider: "custom", model: "meta-llama/Llama-3.1-8B" });
  });

  it("refuses a model nothing serves with a 400 that names it", async () => {
    const error = await resolve("nowhere/some-model").catch((e: unknown) => e);
    expect(isAppError(error) && error.status).toBe(400);
    expect((error as Error).message).toContain("nowhere/some-model");
  });
});
