import { describe, expect, it } from "vitest";
import { canaryActionOf, unchangedText } from "./canary-action";

describe("canaryActionOf", () => {
  it("names a canary's commits by what they did, and nothing else", () => {
    expect(canaryActionOf("Canary Support v2 at 30% of production")).toBe("started");
    expect(canaryActionOf("Ramp canary Support v2 to 50%")).toBe("ramped");
    expect(canaryActionOf("Promote canary Support v2 to all traffic")).toBe("promoted");
    expect(canaryActionOf("Roll back canary Support v2: error rate too high")).toBe("rolled back");
    expect(canaryActionOf("Deploy Support v2 to production")).toBeUndefined();
    expect(canaryActionOf(null)).toBeUndefined();
    expect(unchangedText("rolled back")).toContain("Canary rolled back");
    expect(unchangedText(undefined)).toBe("Redeploy: nothing changed.");
  });
});
