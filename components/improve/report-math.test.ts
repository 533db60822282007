import { describe, expect, it } from "vitest";
import {
  differenceVerdict,
  formatChange,
  formatPoints,
  formatScore,
  formatUsd,
  progressShare,
  relativeChange,
  roundPoints,
} from "./report-math";

describe("the optimization report's figures", () => {
  it("words scores, points and changes with their sign", () => {
    expect(formatScore(0.71)).toBe("71.0%");
    expect(formatScore(undefined)).toBe("—");
    expect(formatPoints(0.22)).toBe("+22.0 pts");
    expect(formatPoints(-0.05)).toBe("−5.0 pts");
    expect(formatPoints(0)).toBe("±0.0 pts");
    expect(formatChange(relativeChange(0.004, 0.005))).toBe("+25%");
    expect(formatChange(relativeChange(1200, 900))).toBe("−25%");
    expect(formatChange(relativeChange(0, 900))).toBe("—");
    expect(formatUsd("0.0042")).toBe("$0.0042");
    expect(formatUsd(2.5)).toBe("$2.50");
    expect(formatUsd(undefined)).toBe("—");
  });

  it("calls the winner better only when the whole interval is above zero", () => {
    const base = { mean: 0.2, confidence: 0.95, method: "bootstrap", resamples: 2000 };
    expect(differenceVerdict({ ...base, ci_low: 0.08, ci_high: 0.35 })).toBe("better");
    expect(differenceVerdict({ ...base, ci_low: -0.02, ci_high: 0.35 })).toBe("unsure");
    expect(differenceVerdict({ ...base, ci_low: -0.3, ci_high: -0.01 })).toBe("worse");
    expect(differenceVerdict(undefined)).toBe("unsure");
  });

  it("keeps the progress share within 0..1, 0 before the cells are known", () => {
    expect(progressShare({ cells_done: 40, cells_total: 80 })).toBe(0.5);
    expect(progressShare({ cells_done: 90, cells_total: 80 })).toBe(1);
    expect(progressShare({})).toBe(0);
    expect(progressShare(undefined)).toBe(0);
  });

  it("orders rounds and spreads each round's candidates into columns", () => {
    const { points, candidates } = roundPoints([
      {
        round: 2,
        best_score: 0.8,
        candidates: [
          {
            revision_id: "c",
            strategy: "reflective",
            train_score: 0.8,
            summary: "",
            variant_slug: "improve/x",
            version: "2",
          },
          {
            revision_id: "d",
            strategy: "few_shot",
            train_score: 0.6,
            summary: "",
            variant_slug: "improve/x",
            version: "2",
          },
          {
            revision_id: "e",
            strategy: "parameter_sweep",
            train_score: 0.5,
            summary: "",
            variant_slug: "improve/x",
            version: "2",
          },
        ],
      },
      {
        round: 1,
        best_score: 0.64,
        candidates: [
          {
            revision_id: "a",
            strategy: "reflective",
            train_score: 0.64,
            summary: "",
            variant_slug: "improve/x",
            version: "2",
          },
        ],
      },
    ]);
    expect(candidates).toBe(3);
    expect(points.map((p) => p.round)).toEqual(["Round 1", "Round 2"]);
    expect(points[0]).toEqual({ round: "Round 1", best: 0.64, c1: 0.64 });
    expect(points[1]).toMatchObject({ best: 0.8, c1: 0.8, c2: 0.6, c3: 0.5 });
  });
});
