import { describe, expect, it } from "vitest";
import { compileLinearPattern, linearPatternError } from "./linear-pattern";

describe("compileLinearPattern", () => {
  it("matches as a RegExp does on ordinary patterns", () => {
    for (const [source, text] of [
      ["^[a-z]+$", "abc"],
      ["^\\d{3}-\\d{4}$", "555-1234"],
      ["b", "abc"],
      ["^\\p{L}+$", "héllo"],
      ["^x$", "y"],
    ]) {
      expect(compileLinearPattern(source).test(text)).toBe(new RegExp(source, "u").test(text));
    }
    expect(compileLinearPattern("^ABC$", "i").test("abc")).toBe(true);
  });

  it("evaluates a catastrophic-backtracking pattern in linear time", () => {
    const started = performance.now();
    expect(compileLinearPattern("^(a+)+$").test(`${"a".repeat(100_000)}!`)).toBe(false);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it("refuses what RE2 cannot run in linear time, with the reason", () => {
    expect(linearPatternError("(a)\\1")).toMatch(/escape|backreference|invalid/i);
    expect(linearPatternError("(?=a)")).toBeTruthy();
    expect(linearPatternError("^[a-z]+$")).toBeUndefined();
  });
});
