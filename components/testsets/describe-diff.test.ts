import { describe, expect, it } from "vitest";
import { describeDiff } from "./describe-diff";
import { diffRows } from "./row-diff";

describe("describeDiff", () => {
  it("says what changed in rows, then in columns, counting in words", () => {
    const before = [
      { q: "a", answer: "A" },
      { q: "b", answer: "B" },
      { q: "c", answer: "C" },
    ];
    const after = [
      { q: "a", answer: "Ay", note: "" },
      { q: "b", answer: "B", note: "" },
      { q: "d", answer: "D", note: "" },
      { q: "e", answer: "E", note: "" },
    ];
    expect(describeDiff(diffRows(before, after))).toEqual(["1 row added", "3 rows changed", "Columns added: note"]);
  });

  it("names removed rows and columns", () => {
    const before = [
      { q: "a", answer: "A" },
      { q: "b", answer: "B" },
    ];
    expect(describeDiff(diffRows(before, [{ q: "a" }]))).toEqual([
      "1 row changed",
      "1 row removed",
      "Columns removed: answer",
    ]);
  });

  it("says the columns only moved when no row or column changed", () => {
    expect(describeDiff(diffRows([{ q: "a", answer: "A" }], [{ answer: "A", q: "a" }]))).toEqual(["Column order only"]);
  });
});
