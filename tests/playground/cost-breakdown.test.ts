import { describe, expect, it } from "vitest";
import { costBreakdown } from "@/components/traces/cost-breakdown";

const costed = (cumulative: Record<string, number>) => ({ ag: { metrics: { costs: { cumulative } } } });

describe("a trace's cost by usage kind", () => {
  it("sums each kind over the spans, labelled, leaving out kinds that cost nothing", () => {
    const breakdown = costBreakdown([
      costed({ prompt: 0.001, cache_read: 0.0002, cache_write: 0.0005, completion: 0.004, total: 0.0057 }),
      costed({ prompt: 0.002, cache_write_1h: 0, reasoning: 0.003, completion: 0.001, total: 0.006 }),
    ]);
    expect(breakdown).toEqual({
      priced: true,
      total: 0.0117,
      kinds: [
        { kind: "prompt", label: "Input", usd: 0.003 },
        { kind: "cache_read", label: "Cached input", usd: 0.0002 },
        { kind: "cache_write", label: "Cache write (5 min)", usd: 0.0005 },
        { kind: "completion", label: "Output", usd: 0.005 },
        { kind: "reasoning", label: "Reasoning", usd: 0.003 },
      ],
    });
  });

  it("says no price, with the reason, when a covered span was not priced; nothing when no span cost anything", () => {
    const unpriced = { ag: { meta: { pricing: { source: "none", reason: "no price for my-model" } } } };
    expect(costBreakdown([costed({ prompt: 1, total: 1 })], [costed({ prompt: 1, total: 1 }), unpriced])).toEqual({
      priced: false,
      reason: "no price for my-model",
    });
    expect(costBreakdown([{ ag: {} }])).toBeUndefined();
  });
});
