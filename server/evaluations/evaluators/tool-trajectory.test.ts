import { describe, expect, it } from "vitest";
import { callMatches, scoreTrajectory } from "./tool-trajectory";

const calls = (...names: string[]) => names.map((name) => ({ name }));

describe("scoreTrajectory", () => {
  it("exact needs the same calls in order; extra or missing calls lower the score", () => {
    expect(scoreTrajectory(calls("search", "fetch"), calls("search", "fetch"), "exact", false)).toEqual({
      score: 1,
      diff: "  search\n  fetch",
    });
    const extra = scoreTrajectory(calls("search", "fetch"), calls("search", "log", "fetch"), "exact", false);
    expect(extra.score).toBeCloseTo(2 / 3, 10);
    expect(extra.diff).toBe("  search\n+ log   (called, not expected)\n  fetch");
    expect(scoreTrajectory(calls("a", "b"), calls("b", "a"), "exact", false).score).toBe(0.5);
    expect(scoreTrajectory([], [], "exact", false)).toEqual({
      score: 1,
      diff: "(no tool calls expected and none made)",
    });
    expect(scoreTrajectory([], calls("a"), "exact", false).score).toBe(0);
  });

  it("in_order allows calls in between but not a different order; any_order ignores order", () => {
    expect(scoreTrajectory(calls("search", "fetch"), calls("search", "log", "fetch"), "in_order", false).score).toBe(1);
    const swapped = scoreTrajectory(calls("search", "fetch"), calls("fetch", "search"), "in_order", false);
    expect(swapped.score).toBe(0.5);
    expect(scoreTrajectory(calls("search", "fetch"), calls("fetch", "search"), "any_order", false).score).toBe(1);
    const missing = scoreTrajectory(calls("search", "search", "fetch"), calls("fetch", "search"), "any_order", false);
    expect(missing.score).toBeCloseTo(2 / 3, 10);
    expect(missing.diff).toBe("  search\n- search   (expected, not called)\n  fetch");
  });

  it("compares the arguments the expectation gives, leaving other fields free", () => {
    expect(
      callMatches({ name: "search", input: { q: "paris" } }, { name: "search", input: { q: "paris", limit: 5 } }, true),
    ).toBe(true);
    expect(callMatches({ name: "search", input: { q: "paris" } }, { name: "search", input: { q: "rome" } }, true)).toBe(
      false,
    );
    expect(
      callMatches({ name: "search", input: { q: "paris" } }, { name: "search", input: { q: "rome" } }, false),
    ).toBe(true);
    expect(callMatches({ name: "search" }, { name: "search", input: { q: "rome" } }, true)).toBe(true);
    const diff = scoreTrajectory(
      [{ name: "search", input: { q: "paris" } }],
      [{ name: "search", input: { q: "rome" } }],
      "exact",
      true,
    ).diff;
    expect(diff).toBe(
      '+ search {"q":"rome"}   (called, not expected)\n- search {"q":"paris"}   (expected, not called)',
    );
  });
});
