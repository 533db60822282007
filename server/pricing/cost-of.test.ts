import { calcPrice } from "@pydantic/genai-prices";
import { describe, expect, it } from "vitest";
import { costOf, type Cost } from "./cost-of";
import type { PriceOverride } from "./price-override";

const M = 1_000_000;
const amounts = (cost: Cost) => {
  if (!cost.priced) throw new Error(`no price: ${cost.reason}`);
  return cost.amounts;
};

// Expected figures are worked out by hand from the catalog's list prices (USD per million tokens).
describe("costOf", () => {
  it("an Anthropic turn: a 5-minute cache write, then a cache read, then a 1-hour write", () => {
    // claude-sonnet-4-5: input 3, cache write 3.75 (5 min) / 6 (1 h), cache read 0.30, output 15.
    const model = { provider: "anthropic", model: "claude-sonnet-4-5-20250929" };
    const write = amounts(costOf({ prompt: 5000, cache_write: 4000, completion: 200 }, model));
    expect(write.prompt).toBeCloseTo((1000 * 3) / M, 12);
    expect(write.cache_write).toBeCloseTo((4000 * 3.75) / M, 12);
    expect(write.completion).toBeCloseTo((200 * 15) / M, 12);
    expect(write.total).toBeCloseTo(0.021, 12);

    const read = amounts(costOf({ prompt: 5100, cache_read: 4000, completion: 300 }, model));
    expect(read).toEqual({
      prompt: expect.closeTo((1100 * 3) / M, 12),
      cache_read: expect.closeTo((4000 * 0.3) / M, 12),
      completion: expect.closeTo((300 * 15) / M, 12),
      total: expect.closeTo(0.0033 + 0.0012 + 0.0045, 12),
    });

    const hour = amounts(costOf({ prompt: 3000, cache_write_1h: 2000, completion: 100 }, model));
    expect(hour.cache_write_1h).toBeCloseTo((2000 * 6) / M, 12);
    expect(hour.total).toBeCloseTo(0.003 + 0.012 + 0.0015, 12);
  });

  it("a long prompt is billed at the long-context tier", () => {
    const cost = amounts(
      costOf({ prompt: 250_000, completion: 1000 }, { provider: "anthropic", model: "claude-sonnet-4-5" }),
    );
    expect(cost.prompt).toBeCloseTo((250_000 * 6) / M, 12);
    expect(cost.completion).toBeCloseTo((1000 * 22.5) / M, 12);
  });

  it("an OpenAI turn with cached input", () => {
    // gpt-4o: input 2.50, cached input 1.25, output 10.
    const cost = amounts(
      costOf({ prompt: 2000, cache_read: 1024, completion: 100 }, { provider: "openai", model: "gpt-4o" }),
    );
    expect(cost.prompt).toBeCloseTo((976 * 2.5) / M, 12);
    expect(cost.cache_read).toBeCloseTo((1024 * 1.25) / M, 12);
    expect(cost.total).toBeCloseTo(0.00244 + 0.00128 + 0.001, 12);
  });

  it("a reasoning model: reasoning tokens are output, shown apart", () => {
    // o3-mini: input 1.10, output 4.40.
    const cost = amounts(
      costOf({ prompt: 100, completion: 1000, reasoning: 800 }, { provider: "openai", model: "o3-mini" }),
    );
    expect(cost.completion).toBeCloseTo((200 * 4.4) / M, 12);
    expect(cost.reasoning).toBeCloseTo((800 * 4.4) / M, 12);
    expect(cost.total).toBeCloseTo(0.00011 + 0.00088 + 0.00352, 12);
  });

  it("the project's price wins over the catalog, and prices a custom provider's model", () => {
    const overrides: PriceOverride[] = [
      { provider: "custom", model: "llama-local", prices: { prompt: 0.5, completion: 1.5, cache_read: 0.05 } },
      { provider: "openai", model: "gpt-4o", prices: { prompt: 1, completion: 4 } },
    ];
    const custom = costOf(
      { prompt: 1000, cache_read: 400, completion: 100 },
      { provider: "custom", model: "llama-local" },
      overrides,
    );
    expect(custom).toMatchObject({ priced: true, source: "project" });
    expect(amounts(custom).total).toBeCloseTo((600 * 0.5 + 400 * 0.05 + 100 * 1.5) / M, 12);
    // A kind the override leaves out is billed at the price it is a part of (cache read at input).
    const discounted = costOf(
      { prompt: 1000, cache_read: 500, completion: 10 },
      { provider: "OpenAI", model: "GPT-4o" },
      overrides,
    );
    expect(amounts(discounted).total).toBeCloseTo((1000 * 1 + 10 * 4) / M, 12);
  });

  it("an unknown model, and a vendor's model name behind a custom endpoint, have no price", () => {
    expect(costOf({ prompt: 10, completion: 5 }, { provider: "openai", model: "no-such-model" })).toMatchObject({
      priced: false,
    });
    expect(costOf({ prompt: 10, completion: 5 }, { provider: "my-vllm", model: "gpt-4o" })).toMatchObject({
      priced: false,
    });
    expect(costOf({ prompt: 10, completion: 5 }, { provider: "custom", model: "gpt-4o" })).toMatchObject({
      priced: false,
      reason: expect.stringContaining("custom endpoint"),
    });
    expect(
      costOf({ prompt: 10, completion: 5 }, { provider: "openai", model: "gpt-4o", deployment: "custom" }),
    ).toMatchObject({
      priced: false,
    });
  });

  it("reads provider names as the OpenTelemetry conventions and the AI SDK write them", () => {
    expect(costOf({ prompt: 1, completion: 1 }, { provider: "gcp.gemini", model: "gemini-2.5-flash" })).toMatchObject({
      priced: true,
      priceOf: { provider: "google" },
    });
    expect(costOf({ prompt: 1, completion: 1 }, { model: "gpt-4o" })).toMatchObject({ priced: true });
  });

  it("totals agree with the catalog package's own calculation", () => {
    const cases = [
      {
        model: "claude-sonnet-4-5",
        provider: "anthropic",
        usage: { prompt: 300_000, cache_read: 100_000, cache_write: 20_000, completion: 5000 },
      },
      {
        model: "claude-opus-4-1",
        provider: "anthropic",
        usage: { prompt: 9000, cache_write_1h: 3000, cache_write: 1000, completion: 700 },
      },
      { model: "gemini-2.5-pro", provider: "google", usage: { prompt: 250_000, cache_read: 50_000, completion: 2000 } },
      {
        model: "gpt-5-mini",
        provider: "openai",
        usage: { prompt: 4000, cache_read: 2048, completion: 900, reasoning: 600 },
      },
    ];
    for (const { model, provider, usage } of cases) {
      const writes = (usage.cache_write ?? 0) + (usage.cache_write_1h ?? 0);
      const expected = calcPrice(
        {
          input_tokens: usage.prompt,
          output_tokens: usage.completion,
          cache_read_tokens: usage.cache_read ?? 0,
          cache_write_tokens: writes,
          ...(usage.cache_write_1h ? { cache_write_1h_tokens: usage.cache_write_1h } : {}),
        },
        model,
        { providerId: provider },
      );
      expect(amounts(costOf(usage, { provider, model })).total).toBeCloseTo(expected!.total_price, 12);
    }
  });
});
