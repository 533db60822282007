import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectStatus, ingest, processQueue, setupTracing, spanId, traceId, type TracingCtx } from "../tracing/helpers";

let c: TracingCtx;
beforeAll(async () => {
  c = await setupTracing();
});
afterAll(async () => {
  await c.t.close();
});

const M = 1_000_000;

/** One model-call span per entry, each in its own trace; returns the stored spans' attributes. */
async function ingestCalls(calls: Array<Record<string, unknown>>, key = c.key) {
  const ids = calls.map(() => traceId());
  const res = await ingest(
    c,
    {
      spans: calls.map((attributes, i) => ({
        trace_id: ids[i],
        span_id: spanId(),
        span_name: "chat",
        start_time: new Date().toISOString(),
        attributes: { "gen_ai.operation.name": "chat", ...attributes },
      })),
    },
    key,
  );
  expectStatus(res, 202);
  await processQueue(c);
  lastTraceIds = ids;
  return Promise.all(ids.map((id) => storedChat(id, key)));
}

let lastTraceIds: string[] = [];

async function storedChat(id: string, key = c.key) {
  const trace = await c.t.call("GET", `/api/traces/${id}`, { key });
  expectStatus(trace, 200);
  return trace.body.trace.spans.chat.attributes;
}

describe("project prices: the API", () => {
  it("sets, lists, replaces (whatever the case) and removes a price; bad input is a 422 naming the field", async () => {
    const put = await c.t.call("PUT", "/api/pricing/prices", {
      key: c.key,
      body: { provider: "custom", model: "Llama-Local", usd_per_million_tokens: { prompt: 0.5, completion: 1.5 } },
    });
    expectStatus(put, 200);
    expect(put.body.price).toMatchObject({ provider: "custom", model: "Llama-Local" });

    const again = await c.t.call("PUT", "/api/pricing/prices", {
      key: c.key,
      body: {
        provider: "CUSTOM",
        model: "llama-local",
        usd_per_million_tokens: { prompt: 0.6, completion: 1.8, cache_read: 0.06 },
      },
    });
    expectStatus(again, 200);
    expect(again.body.price.id).toBe(put.body.price.id);

    const list = await c.t.call("GET", "/api/pricing/prices", { key: c.key });
    expectStatus(list, 200);
    expect(list.body.count).toBe(1);
    expect(list.body.prices[0].usd_per_million_tokens).toEqual({ prompt: 0.6, completion: 1.8, cache_read: 0.06 });

    const bad = await c.t.call("PUT", "/api/pricing/prices", {
      key: c.key,
      body: { provider: "openai", model: "gpt-4o", usd_per_million_tokens: { prompt: -1, output: 2 } },
    });
    expectStatus(bad, 422);
    expect(bad.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(
      expect.arrayContaining(["usd_per_million_tokens.prompt", "usd_per_million_tokens.completion"]),
    );

    const del = await c.t.call("DELETE", `/api/pricing/prices/${put.body.price.id}`, { key: c.key });
    expectStatus(del, 200);
    const gone = await c.t.call("DELETE", `/api/pricing/prices/${put.body.price.id}`, { key: c.key });
    expectStatus(gone, 404);
    expect(gone.body.code).toBe("price_not_found");
  });

  it("a project sees only its own prices", async () => {
    const other = await c.t.newProject("other");
    const res = await c.t.call("PUT", "/api/pricing/prices", {
      key: other.key,
      body: { provider: "openai", model: "gpt-4o", usd_per_million_tokens: { prompt: 1, completion: 1 } },
    });
    expectStatus(res, 200);
    const mine = await c.t.call("GET", "/api/pricing/prices", { key: c.key });
    expect(mine.body.prices.some((p: { id: string }) => p.id === res.body.price.id)).toBe(false);
    expectStatus(await c.t.call("DELETE", `/api/pricing/prices/${res.body.price.id}`, { key: c.key }), 404);
  });

  it("is in the OpenAPI document", async () => {
    const doc = await c.t.call("GET", "/api/openapi.json");
    expect(Object.keys(doc.body.paths["/api/pricing/prices"])).toEqual(expect.arrayContaining(["get", "put"]));
    expect(doc.body.paths["/api/pricing/prices/{id}"].delete).toBeDefined();
  });
});

describe("spans are costed at ingest, per usage kind", () => {
  it("reads the GenAI cache and reasoning attributes and costs each kind (costs worked out by hand)", async () => {
    const [anthropicWrite, anthropicRead, openai, reasoning] = await ingestCalls([
      // claude-sonnet-4-5: input 3, 5-minute write 3.75, 1-hour write 6, read 0.30, output 15.
      {
        "gen_ai.provider.name": "anthropic",
        "gen_ai.request.model": "claude-sonnet-4-5",
        "gen_ai.usage.input_tokens": 6000,
        "gen_ai.usage.cache_creation.input_tokens": 5000,
        "gen_ai.usage.cache_creation.ephemeral_1h_input_tokens": 1000,
        "gen_ai.usage.output_tokens": 200,
      },
      {
        "gen_ai.provider.name": "anthropic",
        "gen_ai.request.model": "claude-sonnet-4-5",
        "gen_ai.usage.input_tokens": 5100,
        "gen_ai.usage.cache_read.input_tokens": 5000,
        "gen_ai.usage.output_tokens": 300,
      },
      // gpt-4o: input 2.50, cached 1.25, output 10.
      {
        "gen_ai.provider.name": "openai",
        "gen_ai.request.model": "gpt-4o",
        "gen_ai.usage.input_tokens": 2000,
        "gen_ai.usage.cache_read.input_tokens": 1024,
        "gen_ai.usage.output_tokens": 100,
      },
      // o3-mini: input 1.10, output 4.40; reasoning is output.
      {
        "gen_ai.provider.name": "openai",
        "gen_ai.request.model": "o3-mini",
        "gen_ai.usage.input_tokens": 100,
        "gen_ai.usage.output_tokens": 1000,
        "gen_ai.usage.reasoning.output_tokens": 800,
      },
    ]);
    expect(anthropicWrite.ag.metrics.tokens.incremental).toEqual({
      prompt: 6000,
      completion: 200,
      total: 6200,
      cache_write: 4000,
      cache_write_1h: 1000,
    });
    expect(anthropicWrite.ag.metrics.costs.incremental).toEqual({
      prompt: expect.closeTo((1000 * 3) / M, 12),
      cache_write: expect.closeTo((4000 * 3.75) / M, 12),
      cache_write_1h: expect.closeTo((1000 * 6) / M, 12),
      completion: expect.closeTo((200 * 15) / M, 12),
      total: expect.closeTo(0.003 + 0.015 + 0.006 + 0.003, 12),
    });
    expect(anthropicWrite.ag.meta.pricing).toEqual({
      source: "catalog",
      provider: "anthropic",
      model: "claude-sonnet-4-5",
    });
    expect(anthropicRead.ag.metrics.costs.incremental.total).toBeCloseTo((100 * 3 + 5000 * 0.3 + 300 * 15) / M, 12);
    expect(openai.ag.metrics.costs.incremental).toMatchObject({
      prompt: expect.closeTo((976 * 2.5) / M, 12),
      cache_read: expect.closeTo((1024 * 1.25) / M, 12),
      total: expect.closeTo((976 * 2.5 + 1024 * 1.25 + 100 * 10) / M, 12),
    });
    expect(reasoning.ag.metrics.costs.incremental).toMatchObject({
      completion: expect.closeTo((200 * 4.4) / M, 12),
      reasoning: expect.closeTo((800 * 4.4) / M, 12),
      total: expect.closeTo((100 * 1.1 + 1000 * 4.4) / M, 12),
    });
  });

  it("reads the AI SDK's telemetry usage details", async () => {
    const [span] = await ingestCalls([
      {
        "ai.operationId": "ai.streamText.doStream",
        "ai.model.id": "gpt-4o",
        "ai.model.provider": "openai.responses",
        "ai.usage.inputTokens": 2000,
        "ai.usage.inputTokenDetails.cacheReadTokens": 1024,
        "ai.usage.outputTokens": 100,
      },
    ]);
    expect(span.ag.metrics.tokens.incremental).toMatchObject({ prompt: 2000, cache_read: 1024, completion: 100 });
    expect(span.ag.metrics.costs.incremental.total).toBeCloseTo((976 * 2.5 + 1024 * 1.25 + 100 * 10) / M, 12);
  });

  it("an unknown model and a custom provider's model have no price, not a cost of 0", async () => {
    const [unknown, custom] = await ingestCalls([
      {
        "gen_ai.provider.name": "openai",
        "gen_ai.request.model": "gpt-nonexistent",
        "gen_ai.usage.input_tokens": 10,
        "gen_ai.usage.output_tokens": 5,
      },
      {
        "gen_ai.provider.name": "my-vllm",
        "gen_ai.request.model": "gpt-4o",
        "gen_ai.usage.input_tokens": 10,
        "gen_ai.usage.output_tokens": 5,
      },
    ]);
    for (const span of [unknown, custom]) {
      expect(span.ag.metrics.costs).toBeUndefined();
      expect(span.ag.meta.pricing).toMatchObject({
        source: "none",
        reason: expect.stringContaining("/api/pricing/prices"),
      });
    }
  });

  it("the project's price applies from when it is set: spans costed before keep their price", async () => {
    const call = {
      "gen_ai.provider.name": "openai",
      "gen_ai.request.model": "gpt-4o-mini",
      "gen_ai.usage.input_tokens": 1_000_000,
      "gen_ai.usage.output_tokens": 1_000_000,
    };
    const [before] = await ingestCalls([call]);
    const beforeTrace = lastTraceIds[0];
    expect(before.ag.meta.pricing.source).toBe("catalog");
    expectStatus(
      await c.t.call("PUT", "/api/pricing/prices", {
        key: c.key,
        body: { provider: "openai", model: "gpt-4o-mini", usd_per_million_tokens: { prompt: 0.1, completion: 0.2 } },
      }),
      200,
    );
    const [after] = await ingestCalls([call]);
    expect(after.ag.meta.pricing).toEqual({ source: "project", provider: "openai", model: "gpt-4o-mini" });
    expect(after.ag.metrics.costs.incremental).toEqual({
      prompt: 0.1,
      completion: 0.2,
      total: expect.closeTo(0.3, 12),
    });
    // The earlier span keeps the catalog's price it was costed at (0.15 + 0.60 per million).
    const kept = await storedChat(beforeTrace);
    expect(kept.ag.meta.pricing.source).toBe("catalog");
    expect(kept.ag.metrics.costs.incremental.total).toBeCloseTo(0.15 + 0.6, 12);
  });
});
