import { describe, expect, it } from "vitest";
import { MAX_REFRESH_SHARE, nextRefreshAt } from "./refresh-pace";

describe("nextRefreshAt", () => {
  it("keeps the least interval while refreshes are cheap", () => {
    expect(nextRefreshAt(10_000, 10_010, 1_000)).toBe(11_000);
  });

  it("spaces costly refreshes so they take at most their share of the time", () => {
    const next = nextRefreshAt(10_000, 10_200, 1_000);
    expect(next).toBe(10_200 + 200 * 19);
    expect(200 / (next - 10_000)).toBeCloseTo(MAX_REFRESH_SHARE);
  });

  it("does not go back in time when the clock does", () => {
    expect(nextRefreshAt(10_000, 9_000, 1_000)).toBe(11_000);
  });
});
