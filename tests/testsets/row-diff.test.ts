import { describe, expect, it } from "vitest";
import { diffRows, hasRowChanges } from "@/components/testsets/row-diff";

describe("diffRows", () => {
  it("finds added, removed and changed rows, and which cells changed", () => {
    const before = [
      { q: "a", answer: "A" },
      { q: "b", answer: "B" },
      { q: "c", answer: "C" },
      { q: "d", answer: "D" },
    ];
    const after = [
      { q: "a", answer: "A" },
      { q: "b", answer: "Bee" },
      { q: "d", answer: "D" },
      { q: "e", answer: "E" },
    ];
    const diff = diffRows(before, after);
    expect(diff.stats).toEqual({ added: 1, removed: 1, changed: 1, unchanged: 2 });
    expect(diff.changes.map((c) => c.kind)).toEqual(["unchanged", "changed", "removed", "unchanged", "added"]);
    const changed = diff.changes[1];
    expect(changed).toMatchObject({ kind: "changed", before: 1, after: 1 });
    expect(changed.kind === "changed" && changed.cells).toEqual([
      { column: "q", kind: "unchanged", before: "b", after: "b" },
      { column: "answer", kind: "changed", before: "B", after: "Bee" },
    ]);
    expect(hasRowChanges(diff)).toBe(true);
  });

  it("reports columns that appear or disappear, and key order is not a change", () => {
    const diff = diffRows([{ a: 1, b: { x: 1, y: 2 } }], [{ b: { y: 2, x: 1 }, a: 1, c: "" }]);
    expect(diff.columns).toEqual({ added: ["c"], removed: [] });
    const change = diff.changes[0];
    expect(change.kind === "changed" && change.cells.filter((c) => c.kind !== "unchanged")).toEqual([
      { column: "c", kind: "added", before: "", after: "" },
    ]);
    expect(hasRowChanges(diffRows([{ a: 1 }], [{ a: 1 }]))).toBe(false);
  });

  it("diffs 10,000 rows with one edit in the middle quickly", () => {
    const before = Array.from({ length: 10_000 }, (_, i) => ({ q: `q${i}`, answer: `a${i}` }));
    const after = before.map((row, i) => (i === 5_000 ? { ...row, answer: "new" } : row));
    const started = performance.now();
    const diff = diffRows(before, after);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(diff.stats).toEqual({ added: 0, removed: 0, changed: 1, unchanged: 9_999 });
  });
});
