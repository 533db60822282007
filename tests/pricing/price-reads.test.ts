import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { drivenRunsEnded } from "@/server/agent-runs";
import { loadConfig } from "@/server/core/config";
import { PRICES_READ_MS } from "@/server/pricing";
import type * as priceStore from "@/server/pricing/price-store";
import { projectPrices } from "@/server/pricing/price-store";
import { drainIngestQueue } from "@/server/tracing";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";
import { createTestApp, type TestApp } from "../helpers/test-app";

// Every read of a project's prices goes through the price store: counted here.
vi.mock("@/server/pricing/price-store", async (importOriginal) => {
  const original = await importOriginal<typeof priceStore>();
  return { ...original, projectPrices: vi.fn(original.projectPrices) };
});

/**
 * A turn reads the project's prices once: the run's cost and the budget's spend price its steps
 * from the same cached read (server/pricing/cached-prices.ts), and a turn soon after reads none.
 */
let app: TestApp;
let model: ScriptedModelServer;

beforeAll(async () => {
  model = await startScriptedModelServer();
  const defaults = loadConfig({});
  app = await createTestApp({
    providerEnv: { ...defaults.providerEnv, openai: { key: "sk-openai-test", baseUrl: model.baseUrl } },
  });
});
afterAll(async () => {
  await app.close();
  await model.close();
});

const reads = (projectId: string) =>
  vi.mocked(projectPrices).mock.calls.filter(([, project]) => project === projectId).length;

async function turn(key: string): Promise<void> {
  model.script({ kind: "reply", text: "ok", usage: { input: 1000, output: 10 } });
  const res = await app.call("POST", "/services/agent/v0/invoke", {
    key,
    body: {
      data: {
        inputs: { messages: [{ role: "user", content: "hello" }] },
        parameters: { agent: { llm: { provider: "openai", model: "gpt-5-mini" }, tools: [] } },
      },
    },
  });
  expect(res.status).toBe(200);
  // Its run's end and its spans' ingest included.
  await drivenRunsEnded(app.context.db);
  await drainIngestQueue(app.context);
}

describe("reads of a project's prices", () => {
  it("one turn with a budget reads them once; the next within PRICES_READ_MS reads none; a price set reads again", async () => {
    const { key, projectId } = await app.newProject();
    const budget = await app.call("POST", "/api/controls/budgets/", {
      key,
      body: { name: "daily", scope: "project", window: "day", limit_usd: 100 },
    });
    expect(budget.status).toBe(201);

    await turn(key);
    expect(reads(projectId)).toBe(1);

    await turn(key);
    expect(reads(projectId)).toBe(1);

    // A price set through this process is read by the next turn, once.
    const price = await app.call("PUT", "/api/pricing/prices", {
      key,
      body: { provider: "openai", model: "gpt-5-mini", usd_per_million_tokens: { prompt: 1, completion: 2 } },
    });
    expect(price.status, JSON.stringify(price.body)).toBeLessThan(300);
    await turn(key);
    expect(reads(projectId)).toBe(2);

    // Older than PRICES_READ_MS on the app's clock: served, and read again in the background.
    app.advanceClock(PRICES_READ_MS + 1);
    await turn(key);
    expect(reads(projectId)).toBe(3);
  });
});
