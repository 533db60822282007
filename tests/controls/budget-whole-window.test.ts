import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drivenRunsEnded } from "@/server/agent-runs";
import { loadConfig } from "@/server/core/config";
import { apiKeys } from "@/server/db/schema";
import { drainIngestQueue } from "@/server/tracing";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";
import { createTestApp, type TestApp } from "../helpers/test-app";

let app: TestApp;
let model: ScriptedModelServer;

/** gpt-5-mini lists at $0.25 per million input tokens: a step of 1M input tokens costs $0.25. */
const invokeBody = {
  data: {
    inputs: { messages: [{ role: "user", content: "hello" }] },
    parameters: { agent: { llm: { provider: "openai", model: "gpt-5-mini" }, tools: [] } },
  },
};

beforeAll(async () => {
  model = await startScriptedModelServer();
  const defaults = loadConfig({});
  app = await createTestApp({
    providerEnv: { ...defaults.providerEnv, openai: { key: "sk-openai-test", baseUrl: model.baseUrl } },
    agentRuns: { ...defaults.agentRuns, maxRetries: 0 },
  });
});
afterAll(async () => {
  await app.close();
  await model.close();
});

async function spendOnce(key: string) {
  model.script({ kind: "reply", text: "paid", usage: { input: 1_000_000, output: 0 } });
  const res = await app.call("POST", "/services/agent/v0/invoke", { key, body: invokeBody });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  await drivenRunsEnded(app.context.db);
  await drainIngestQueue(app.context);
}

const budget = async (key: string, body: Record<string, unknown>) => {
  const res = await app.call("POST", "/api/controls/budgets/", {
    key,
    body: { name: "b", window: "day", limit_usd: 1, ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.budget as { spent_usd: number };
};

describe("a new budget", () => {
  it("counts what its scope spent earlier in the window, not only spend after it was made", async () => {
    const { key, projectId } = await app.newProject();
    const other = await app.newProject();
    await spendOnce(key);
    await spendOnce(other.key);
    const [row] = await app.context.db.select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.projectId, projectId));
    // The project's and its key's earlier spend; another project's is not counted.
    expect((await budget(key, { scope: "project" })).spent_usd).toBeCloseTo(0.25, 9);
    expect((await budget(key, { name: "key", scope: "api_key", target_id: row.id })).spent_usd).toBeCloseTo(0.25, 9);
    // A key that spent nothing has spent nothing.
    const fresh = await app.call("POST", "/api/keys", { key, body: { name: "fresh" } });
    expect(fresh.status, JSON.stringify(fresh.body)).toBe(201);
    expect((await budget(key, { name: "fresh", scope: "api_key", target_id: fresh.body.api_key.id })).spent_usd).toBe(
      0,
    );
    // Spend after the budget adds to what it started with.
    await spendOnce(key);
    const listed = await app.call("GET", "/api/controls/budgets/", { key });
    expect(listed.body.budgets.find((b: { name: string }) => b.name === "b").spent_usd).toBeCloseTo(0.5, 9);
  });
});
