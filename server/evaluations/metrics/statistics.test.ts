import { describe, expect, it } from "vitest";
import { binaryStats, numericStats } from "./statistics";

describe("metric statistics", () => {
  it("summarises numbers as the reference does: interpolated percentiles, spreads and a histogram", () => {
    const stats = numericStats([4, 1, 3, 2, 5]) as Record<string, any>;
    expect(stats).toMatchObject({ count: 5, sum: 15, mean: 3, min: 1, max: 5, range: 4 });
    expect(Object.keys(stats.pcts)).toHaveLength(27);
    expect(stats.pcts).toMatchObject({ "p00.05": 1.002, p25: 2, p50: 3, p75: 4, p90: 4.6, p99: 4.96 });
    expect(stats.iqrs.iqr50).toBe(2);
    expect(stats.hist).toEqual([
      { bin: 1, count: 2, interval: [1, 2.333333333333333], density: 0.4 },
      { bin: 2, count: 1, interval: [2.333333333333333, 3.6666666666666665], density: 0.2 },
      { bin: 3, count: 2, interval: [3.6666666666666665, 5], density: 0.4 },
    ]);
    expect(numericStats([10]).pcts).toMatchObject({ p90: 10 });
    expect(numericStats([])).toEqual({ count: 0 });
  });
  it("counts booleans; the mean is the share of true", () => {
    expect(binaryStats([true, false, true, true])).toMatchObject({
      count: 4,
      mean: 0.75,
      freq: [
        { value: true, count: 3 },
        { value: false, count: 1 },
      ],
    });
  });
});
