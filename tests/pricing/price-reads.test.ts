import { afterAll, beforeAll, describe, expect, it, vi, type MockInstance } from "vitest";
import { drivenRunsEnded } from "@/server/agent-runs";
import { loadConfig } from "@/server/core/config";
import { cachedProjectPrices, PRICES_READ_MS } from "@/server/pricing";
import { drainIngestQueue } from "@/server/tracing";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";
import { createTestApp, type TestApp } from "../helpers/test-app";

/**
 * A turn reads the project's prices once: the run's cost and the budget's spend price its steps
 * from the one read `prepareTurn` makes (pricing's cached read), which a turn soon after shares.
 */
let app: TestApp;
let model: ScriptedModelServer;
let select: MockInstance;

beforeAll(async () => {
  model = await startScriptedModelServer();
  const defaults = loadConfig({});
  app = await createTestApp({
    providerEnv: { ...defaults.providerEnv, openai: { key: "sk-openai-test", baseUrl: model.baseUrl } },
  });
  // Every read of a project's prices is the price store's select of these three columns
  // (server/pricing/price-store.ts, projectPrices), on the app's database: counted here.
  select = vi.spyOn(app.context.db, "select");
});
afterAll(async () => {
  await app.close();
  await model.close();
});

/** Reads of prices so far (this file's turns run one at a time, one project each). */
const reads = () =>
  select.mock.calls.filter(
    ([fields]) =>
      Object.keys(fields ?? {})
        .sort()
        .join() === "model,prices,provider",
  ).length;

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
  it("a turn with a budget reads them once (its cost and its spend); a price set is read by the next turn", async () => {
    const { key } = await app.newProject();
    const budget = await app.call("POST", "/api/controls/budgets/", {
      key,
      body: { name: "daily", scope: "project", window: "day", limit_usd: 100 },
    });
    expect(budget.status).toBe(201);

    const before = reads();
    await turn(key);
    expect(reads() - before).toBe(1);

    // A price set through this process is read by the next turn, once.
    const price = await app.call("PUT", "/api/pricing/prices", {
      key,
      body: { provider: "openai", model: "gpt-5-mini", usd_per_million_tokens: { prompt: 1, completion: 2 } },
    });
    expect(price.status, JSON.stringify(price.body)).toBeLessThan(300);
    await turn(key);
    expect(reads() - before).toBe(2);

    // Older than PRICES_READ_MS on the app's clock: served, and read again in the background, once.
    app.advanceClock(PRICES_READ_MS + 1);
    await turn(key);
    expect(reads() - before).toBe(3);
  });

  it("held prices serve for PRICES_READ_MS on the app's clock, then are read again once", async () => {
    const { projectId } = await app.newProject();
    let now = app.context.now().getTime();
    const at = { db: app.context.db, now: () => new Date(now) };
    const before = reads();
    await cachedProjectPrices(at, projectId);
    await cachedProjectPrices(at, projectId);
    now += PRICES_READ_MS;
    await cachedProjectPrices(at, projectId);
    expect(reads() - before).toBe(1);
    now += 1;
    await cachedProjectPrices(at, projectId);
    await cachedProjectPrices(at, projectId);
    expect(reads() - before).toBe(2);
  });
});
