import { describe, expect, it } from "vitest";
import {
  appendTable,
  formatOf,
  parseCsvTable,
  parseJsonTable,
  tableToCsv,
  tableToJson,
} from "@/components/testsets/table-files";

describe("CSV import and export", () => {
  it("takes the header as columns and every value as a string", () => {
    const parsed = parseCsvTable("input,correct_answer\nFrance?,Paris\nSpain?,\n");
    expect(parsed).toEqual({
      ok: true,
      table: {
        columns: ["input", "correct_answer"],
        rows: [
          { input: "France?", correct_answer: "Paris" },
          { input: "Spain?", correct_answer: "" },
        ],
      },
    });
  });

  it("says what is wrong with a header or a line", () => {
    expect(parseCsvTable("")).toEqual({ ok: false, error: "The file is empty: a CSV needs a header row." });
    expect(parseCsvTable("a,,c\n1,2,3")).toMatchObject({ ok: false, error: "Column 2 of the header row has no name." });
    expect(parseCsvTable("a,a\n1,2")).toMatchObject({ ok: false, error: 'The header names the column "a" twice.' });
    expect(parseCsvTable("a,b\n1,2\n1,2,3")).toMatchObject({
      ok: false,
      error: "Line 3 has 3 fields; the header has 2.",
    });
  });

  it("exports objects as JSON text and round-trips strings with commas, quotes and line breaks", () => {
    const table = {
      columns: ["q", "meta"],
      rows: [
        { q: 'a, "b"\nc', meta: { n: 1 } },
        { q: "plain", meta: 2 },
      ],
    };
    const csv = tableToCsv(table);
    expect(csv).toBe('q,meta\r\n"a, ""b""\nc","{""n"":1}"\r\nplain,2\r\n');
    expect(parseCsvTable(csv)).toEqual({
      ok: true,
      table: {
        columns: ["q", "meta"],
        rows: [
          { q: 'a, "b"\nc', meta: '{"n":1}' },
          { q: "plain", meta: "2" },
        ],
      },
    });
  });
});

describe("JSON import and export", () => {
  it("accepts an array of rows, stored `{id, data}` rows, or an object with testcases", () => {
    const expected = { ok: true, table: { columns: ["a", "b"], rows: [{ a: 1 }, { a: 2, b: [1] }] } };
    expect(parseJsonTable('[{"a":1},{"a":2,"b":[1]}]')).toEqual(expected);
    expect(parseJsonTable('{"testcases":[{"id":"x","data":{"a":1}},{"data":{"a":2,"b":[1]}}]}')).toEqual(expected);
  });

  it("refuses what is not a list of objects, saying where", () => {
    expect(parseJsonTable("{")).toMatchObject({ ok: false, error: expect.stringMatching(/^Not valid JSON/) });
    expect(parseJsonTable('{"rows":[]}')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/array of objects/),
    });
    expect(parseJsonTable('[{"a":1},"b"]')).toMatchObject({ ok: false, error: expect.stringMatching(/^Item 2 /) });
  });

  it("exports every column on every row, and reads its own export back", () => {
    const table = { columns: ["a", "b"], rows: [{ a: "x" }, { a: "y", b: { deep: true } }] };
    const json = tableToJson(table);
    expect(JSON.parse(json)).toEqual([
      { a: "x", b: "" },
      { a: "y", b: { deep: true } },
    ]);
    expect(parseJsonTable(json)).toMatchObject({ ok: true, table: { columns: ["a", "b"] } });
  });
});

describe("formatOf and appendTable", () => {
  it("goes by extension, else by the first character", () => {
    expect(formatOf("cases.JSON", "a,b")).toBe("json");
    expect(formatOf("cases.csv", "[")).toBe("csv");
    expect(formatOf("pasted", '  [{"a":1}]')).toBe("json");
    expect(formatOf("pasted", "a,b")).toBe("csv");
  });

  it("appends rows after the current ones and new columns after the current columns", () => {
    const merged = appendTable(
      { columns: ["a"], rows: [{ a: "1" }] },
      { columns: ["b", "a"], rows: [{ b: "2", a: "3" }] },
    );
    expect(merged).toEqual({ columns: ["a", "b"], rows: [{ a: "1" }, { b: "2", a: "3" }] });
  });
});
