import { describe, expect, it } from "vitest";
import { binaryStats, numericStats, percentile } from "./statistics";

describe("metric statistics", () => {
  it("summarises numbers with p50 and p90 by interpolation", () => {
    expect(numericStats([4, 1, 3, 2, 5])).toEqual({
      count: 5,
      sum: 15,
      mean: 3,
      min: 1,
      max: 5,
      range: 4,
      pcts: { p50: 3, p90: 4.6 },
    });
    expect(percentile([10], 90)).toBe(10);
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
