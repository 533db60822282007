import { formatDelimited, parseDelimited } from "./delimited-text";
import { cellText, columnsOf, rowsOfRevision, type TestcaseData, type TestsetTable } from "./testset-table";

export type TableFormat = "csv" | "json";

export type ParsedTable = { ok: true; table: TestsetTable } | { ok: false; error: string };

/** The file's extension decides; without one, text that starts like JSON is JSON. */
export function formatOf(fileName: string, text: string): TableFormat {
  const extension = fileName.toLowerCase().split(".").pop();
  if (extension === "json" || extension === "jsonl") return "json";
  if (extension === "csv" || extension === "tsv" || extension === "txt") return "csv";
  return /^\s*[[{]/.test(text) ? "json" : "csv";
}

/** A header row then one row per testcase; every value is a string, as a spreadsheet wrote it. */
export function parseCsvTable(text: string): ParsedTable {
  const records = parseDelimited(text).filter((r) => !(r.length === 1 && r[0] === ""));
  if (records.length === 0) return { ok: false, error: "The file is empty: a CSV needs a header row." };
  const header = records[0].map((h) => h.trim());
  const blank = header.findIndex((h) => h === "");
  if (blank >= 0) return { ok: false, error: `Column ${blank + 1} of the header row has no name.` };
  const duplicate = header.find((h, i) => header.indexOf(h) !== i);
  if (duplicate) return { ok: false, error: `The header names the column "${duplicate}" twice.` };
  const long = records.findIndex((r, i) => i > 0 && r.length > header.length);
  if (long > 0)
    return {
      ok: false,
      error: `Line ${long + 1} has ${records[long].length} fields; the header has ${header.length}.`,
    };
  const rows = records.slice(1).map((r) => Object.fromEntries(header.map((h, i) => [h, r[i] ?? ""])));
  return { ok: true, table: { columns: header, rows } };
}

/**
 * An array of objects (each a testcase, or `{data: {...}}` as the API stores them), or an object
 * with a `testcases` array (a revision's data, or this editor's own export).
 */
export function parseJsonTable(text: string): ParsedTable {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `Not valid JSON: ${(error as Error).message}` };
  }
  const list = Array.isArray(value)
    ? value
    : isObject(value) && Array.isArray(value.testcases)
      ? value.testcases
      : null;
  if (!list) return { ok: false, error: "Expected an array of objects, or an object with a testcases array." };
  const bad = list.findIndex((row) => !isObject(row));
  if (bad >= 0)
    return { ok: false, error: `Item ${bad + 1} is not an object: every testcase is an object of columns.` };
  const rows = rowsOfRevision({ testcases: list });
  return { ok: true, table: { columns: columnsOf(rows), rows } };
}

export function parseTable(text: string, format: TableFormat): ParsedTable {
  return format === "json" ? parseJsonTable(text) : parseCsvTable(text);
}

/** Non-string values are written as JSON text, which the JSON export keeps as values. */
export function tableToCsv(table: TestsetTable): string {
  return formatDelimited([table.columns, ...table.rows.map((row) => table.columns.map((c) => cellText(row[c])))]);
}

export function tableToJson(table: TestsetTable): string {
  const rows = table.rows.map((row) => Object.fromEntries(table.columns.map((c) => [c, row[c] ?? ""])));
  return `${JSON.stringify(rows, null, 2)}\n`;
}

/** Imported rows after the current ones; columns the import adds come last. */
export function appendTable(table: TestsetTable, imported: TestsetTable): TestsetTable {
  const columns = [...table.columns, ...imported.columns.filter((c) => !table.columns.includes(c))];
  return { columns, rows: [...table.rows, ...imported.rows] };
}

const isObject = (value: unknown): value is TestcaseData =>
  typeof value === "object" && value !== null && !Array.isArray(value);
