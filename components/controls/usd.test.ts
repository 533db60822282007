import { describe, expect, it } from "vitest";
import { formatUsd } from "./usd";

describe("formatUsd", () => {
  it("keeps a small limit's digits and shows cents otherwise", () => {
    expect(formatUsd(0.001)).toBe("$0.001");
    expect(formatUsd(0.054)).toBe("$0.054");
    expect(formatUsd(10)).toBe("$10.00");
    expect(formatUsd(0)).toBe("$0.00");
    expect(formatUsd(1234.5)).toBe("$1,234.50");
  });
});
