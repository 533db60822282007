import { describe, expect, it, vi } from "vitest";
import { binValue } from "@/server/tracing";
import { Histogram } from "./histogram";

const of = (histogram: Record<string, number>) => {
  const h = new Histogram();
  for (const [bin, count] of Object.entries(histogram)) h.add(Number(bin), count);
  return h;
};
const histogramQuantile = (histogram: Record<string, number>, q: number) => of(histogram).quantiles([q])[0];
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

describe("Histogram", () => {
  // jsonb's text orders keys by length, then bytes: "-2" before "10", "-10" after "-9".
  const stored = (entries: [number, number][]) =>
    `{${entries
      .map(([bin, count]) => [String(bin), count] as const)
      .sort(([a], [b]) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0))
      .map(([bin, count]) => `"${bin}": ${count}`)
      .join(", ")}}`;
  const fromText = (text: string) => {
    const h = new Histogram();
    h.addText(text);
    return h;
  };
  const qs = [0.05, 0.25, 0.5, 0.75, 0.9, 0.99, 1];

  it("reads jsonb's text as the same counts as one bin at a time, negative bins (below 1 ms) included", () => {
    const entries: [number, number][] = [];
    for (let bin = -40; bin <= 420; bin += 3) entries.push([bin, 1 + ((bin * 7) & 15)]);
    const text = stored(entries);
    expect(text.indexOf('"-1"')).toBeLessThan(text.indexOf('"11"'));
    // By hand, not through an object.
    const parse = vi.spyOn(JSON, "parse");
    const read = fromText(text);
    expect(parse).not.toHaveBeenCalled();
    parse.mockRestore();
    expect(read).toEqual(of(Object.fromEntries(entries)));
  });

  it("takes what is not whole numbers in jsonb's layout the general way", () => {
    const expected = of({ "12": 2, "30": 1, "-3": 4 }).quantiles(qs);
    expect(fromText('{"12":2,"30":1,"-3":4}').quantiles(qs)).toEqual(expected);
    expect(fromText('{"-3": 4, "12": 2.0, "30": 1}').quantiles(qs)).toEqual(expected);
    expect(fromText('{"-3": 4, "12": 2, "30": 1, "x": null}').quantiles(qs)).toEqual(expected);
    expect(fromText('{"30": 1, "12": 2, "-3": 4}').quantiles(qs)).toEqual(expected);
  });

  it("adds histograms with bins in common, or not, as their sum", () => {
    const a = { "1": 1, "5": 2, "9": 1 };
    const b = { "-2": 1, "5": 3, "12": 5 };
    const c = { "5": 1, "9": 2 };
    const sum = of(a);
    sum.addAll(of(b));
    sum.addAll(of(c));
    // Its first bins here already, a later one not.
    sum.addAll(of({ "1": 2, "5": 1, "7": 2 }));
    sum.addAll(new Histogram());
    expect(sum).toEqual(of({ "-2": 1, "1": 3, "5": 7, "7": 2, "9": 3, "12": 5 }));
    // The sum's own arrays, not the first histogram's: adding to it leaves that one as it was.
    const first = of(a);
    const total = new Histogram();
    total.addAll(first);
    total.addAll(of(c));
    expect(first.quantiles(qs)).toEqual(of(a).quantiles(qs));
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
