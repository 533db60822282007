import { describe, expect, it } from "vitest";
import {
  cellText,
  cellValue,
  committedRows,
  rowsOfRevision,
  tableOfRevision,
} from "@/components/testsets/testset-table";

describe("testset table", () => {
  it("reads stored `{id, data}` rows in the saved column order, unknown keys after", () => {
    const data = {
      columns: ["question", "answer"],
      testcases: [
        { id: "1", data: { answer: "A", question: "Q", extra: 1 } },
        { id: "2", data: { question: "Q2" } },
      ],
    };
    expect(tableOfRevision(data)).toEqual({
      columns: ["question", "answer", "extra"],
      rows: [{ answer: "A", question: "Q", extra: 1 }, { question: "Q2" }],
    });
    expect(rowsOfRevision({ testcases: [{ a: 1 }, "junk"] })).toEqual([{ a: 1 }]);
    expect(tableOfRevision(undefined)).toEqual({ columns: [], rows: [] });
  });

  it("shows values as text and keeps a non-string value's type while its text parses", () => {
    expect(cellText(undefined)).toBe("");
    expect(cellText({ a: [1] })).toBe('{"a":[1]}');
    expect(cellValue("[1,2]", ["x"])).toEqual([1, 2]);
    expect(cellValue("[1,2", ["x"])).toBe("[1,2");
    expect(cellValue("42", "41")).toBe("42");
  });

  it("commits only the table's columns, inventing no value", () => {
    expect(committedRows({ columns: ["b", "a"], rows: [{ a: 1, gone: 2 }, { b: "x" }] })).toEqual([
      { a: 1 },
      { b: "x" },
    ]);
  });
});
