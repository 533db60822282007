import { describe, expect, it } from "vitest";
import { Histogram } from "./histogram";
import type { Accumulator } from "./metrics";
import { addRollupRows, type RollupSumsRow } from "./rollup-merge";

const row = (key: string, maps: Partial<Record<"latency" | "ttft" | "tokens" | "costs", string>>): RollupSumsRow => ({
  bucket: "2026-11-01T00:00:00Z",
  key,
  spans: 2,
  errors: 1,
  duration_ms: 10.5,
  ttft_count: 0,
  ttft_ms: 0,
  latency: "{}",
  ttft: "{}",
  tokens: "{}",
  costs: "{}",
  ...maps,
});

describe("adding roll-up rows in the process", () => {
  it("sums per bucket and group as numeric would: exact decimals, rounded once", () => {
    const cells = new Map<number, Map<string, Accumulator>>();
    addRollupRows(cells, [
      row("gpt", {
        latency: '{"300": 2, "301": 1}',
        tokens: '{"prompt": 10}',
        costs: '{"total": 0.1, "prompt": null}',
      }),
      row("gpt", { latency: '{"300": 3}', tokens: '{"prompt": 0.1}', costs: '{"total": 0.2}' }),
      row("gpt", { tokens: '{"prompt": 0.2}', costs: '{"total": 0.000000000000000000001}' }),
      row("", { costs: '{"we\\"ird": 1.5}' }),
    ]);
    const [byKey] = cells.values();
    const gpt = byKey.get("gpt")!;
    expect(gpt.spans).toBe(6);
    expect(gpt.errors).toBe(3);
    expect(gpt.durationMs).toBe(31.5);
    const latency = new Histogram();
    latency.add(300, 5);
    latency.add(301, 1);
    expect(gpt.latency).toEqual(latency);
    // As doubles, 10 + 0.1 + 0.2 is 10.299999999999999; numeric's sum is 10.3.
    expect(gpt.tokens).toEqual({ prompt: 10.3 });
    // 0.1 + 0.2 + 1e-21, rounded once: 0.3 (doubles give 0.30000000000000004); a null is no amount.
    expect(gpt.costs).toEqual({ total: 0.3 });
    expect(byKey.get("")!.costs).toEqual({ 'we"ird': 1.5 });
  });
});
