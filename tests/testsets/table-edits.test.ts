import { describe, expect, it } from "vitest";
import { clipboardGrid } from "@/components/testsets/clipboard-grid";
import {
  addColumn,
  addRow,
  columnNameProblem,
  deleteColumn,
  deleteRows,
  pasteGrid,
  renameColumn,
  setCell,
} from "@/components/testsets/table-edits";

const table = {
  columns: ["input", "n"],
  rows: [
    { input: "a", n: 1 },
    { input: "b", n: 2 },
  ],
};

describe("table edits", () => {
  it("edits a cell, keeping a number a number while it parses and the rest untouched", () => {
    const edited = setCell(setCell(table, 0, "n", "41"), 1, "input", "b!");
    expect(edited.rows).toEqual([
      { input: "a", n: 41 },
      { input: "b!", n: 2 },
    ]);
    expect(setCell(table, 0, "n", "forty").rows[0].n).toBe("forty");
    expect(table.rows[0].n).toBe(1);
  });

  it("adds and deletes rows", () => {
    expect(addRow(table).rows[2]).toEqual({ input: "", n: "" });
    expect(addRow(table, 0).rows[0]).toEqual({ input: "", n: "" });
    expect(deleteRows(table, [0]).rows).toEqual([{ input: "b", n: 2 }]);
  });

  it("adds, renames in place and deletes columns; names must be new and non-empty", () => {
    const added = addColumn(table, " notes ");
    expect(added.columns).toEqual(["input", "n", "notes"]);
    expect(added.rows[0]).toEqual({ input: "a", n: 1, notes: "" });
    const renamed = renameColumn(added, "input", "question");
    expect(renamed.columns).toEqual(["question", "n", "notes"]);
    expect(Object.keys(renamed.rows[1])).toEqual(["question", "n", "notes"]);
    expect(deleteColumn(renamed, "n").rows[0]).toEqual({ question: "a", notes: "" });
    expect(columnNameProblem(table, "  ")).toBe("A column needs a name.");
    expect(columnNameProblem(table, "n")).toBe('There is already a column "n".');
    expect(columnNameProblem(table, "n", "n")).toBeUndefined();
  });
});

describe("paste from a spreadsheet", () => {
  it("reads the clipboard's tab-separated rows, quoted line breaks included", () => {
    expect(clipboardGrid('x\ty\r\n"two\nlines"\tz\r\n')).toEqual([
      ["x", "y"],
      ["two\nlines", "z"],
    ]);
    expect(clipboardGrid("one cell, with a comma")).toEqual([["one cell, with a comma"]]);
    expect(clipboardGrid("")).toEqual([]);
  });

  it("writes the block from the chosen cell, growing rows and columns past the edge", () => {
    const pasted = pasteGrid(table, { row: 1, column: 1 }, [
      ["20", "x"],
      ["30", "y"],
    ]);
    expect(pasted.columns).toEqual(["input", "n", "column_3"]);
    expect(pasted.rows).toEqual([
      { input: "a", n: 1, column_3: "" },
      { input: "b", n: 20, column_3: "x" },
      { input: "", n: "30", column_3: "y" },
    ]);
  });
});
