/** One testcase: its columns and their values (strings mostly; numbers, objects and arrays survive). */
export type TestcaseData = Record<string, unknown>;

/** The editor's model of a testset: columns in display order and the rows' data. */
export interface TestsetTable {
  columns: string[];
  rows: TestcaseData[];
}

/** A stored revision's `data.testcases` is `[{id, data}]`; a bare object is its own data. */
export function rowsOfRevision(data: Record<string, unknown> | undefined): TestcaseData[] {
  const raw = Array.isArray(data?.testcases) ? data.testcases : [];
  return raw
    .filter((row): row is Record<string, unknown> => typeof row === "object" && row !== null && !Array.isArray(row))
    .map((row) =>
      typeof row.data === "object" && row.data !== null && !Array.isArray(row.data) ? (row.data as TestcaseData) : row,
    );
}

/** Every key any row has, in the order they are first seen. */
export function columnsOf(rows: readonly TestcaseData[]): string[] {
  const seen = new Set<string>();
  for (const row of rows) for (const key of Object.keys(row)) seen.add(key);
  return [...seen];
}

/**
 * A revision's rows as a table. Column order comes from the revision's `columns` (the editor saves
 * it: JSONB does not keep a row's key order); keys no saved column names follow, first seen first.
 */
export function tableOfRevision(data: Record<string, unknown> | undefined): TestsetTable {
  const rows = rowsOfRevision(data);
  const saved = Array.isArray(data?.columns) ? data.columns.filter((c): c is string => typeof c === "string") : [];
  return { columns: [...new Set([...saved, ...columnsOf(rows)])], rows };
}

/** What a cell shows and edits: strings as they are, anything else as JSON, a missing value as "". */
export function cellText(value: unknown): string {
  if (value === undefined || value === null) return "";
  return typeof value === "string" ? value : JSON.stringify(value);
}

/**
 * The value an edited cell stores. A cell that held a number, boolean, object or array keeps that
 * type when the text still parses as JSON; everything else is a string, as a spreadsheet gives it.
 */
export function cellValue(text: string, previous: unknown): unknown {
  if (previous !== undefined && previous !== null && typeof previous !== "string") {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

/** The rows as committed: only the table's columns (a deleted column leaves every row), no value invented for a missing one. */
export function committedRows(table: TestsetTable): TestcaseData[] {
  return table.rows.map((row) => {
    const out: TestcaseData = {};
    for (const column of table.columns) if (row[column] !== undefined) out[column] = row[column];
    return out;
  });
}
