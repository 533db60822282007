import { describe, expect, it } from "vitest";
import { binValue } from "@/server/tracing";
import { histogramQuantiles } from "./histogram";

const histogramQuantile = (histogram: Record<string, number>, q: number) => histogramQuantiles(histogram, [q])[0];
import { grainFor } from "./time-buckets";

/** The bin the roll-up's SQL gives a value (`ceil(ln(ms) / ln 1.02)`). */
const bin = (ms: number) => Math.ceil(Math.log(ms) / Math.log(1.02));

describe("histogramQuantile", () => {
  it("reads percentiles within 1% of the exact value, from bins that add up", () => {
    const values = Array.from({ length: 1000 }, (_, i) => 1 + i * 7.3);
    const histogram: Record<string, number> = {};
    for (const v of values) histogram[bin(v)] = (histogram[bin(v)] ?? 0) + 1;
    for (const q of [0.5, 0.9, 0.99]) {
      const exact = values[Math.ceil(q * values.length) - 1];
      expect(Math.abs(histogramQuantile(histogram, q) - exact) / exact).toBeLessThan(0.01);
    }
  });

  it("is 0 for an empty histogram and ignores bins a replaced span emptied", () => {
    expect(histogramQuantile({}, 0.5)).toBe(0);
    expect(histogramQuantile({ [bin(10)]: 0, [bin(500)]: 2 }, 0.5)).toBeCloseTo(binValue(bin(500)), 2);
  });
});

describe("grainFor", () => {
  const at = (iso: string) => new Date(iso);
  it("takes the coarsest grain every boundary falls on", () => {
    expect(grainFor("day", [at("2026-01-10T00:00:00Z"), at("2026-01-11T00:00:00Z")])).toBe("day");
    expect(grainFor("day", [at("2026-01-10T05:00:00Z"), at("2026-01-11T05:00:00Z")])).toBe("hour");
    expect(grainFor("day", [at("2026-01-09T18:30:00Z"), at("2026-01-10T18:30:00Z")])).toBe("quarter");
    expect(grainFor("hour", [at("2026-01-10T00:45:00Z")])).toBe("quarter");
    expect(grainFor("minute", [at("2026-01-10T00:00:00Z")])).toBeUndefined();
  });
});
