import { cellValue, type TestcaseData, type TestsetTable } from "./testset-table";

/** Edits of the table, each returning a new table (the editor keeps the old one for undo and diff). */

export function setCell(table: TestsetTable, rowIndex: number, column: string, text: string): TestsetTable {
  const rows = table.rows.slice();
  const row = rows[rowIndex];
  if (!row) return table;
  rows[rowIndex] = { ...row, [column]: cellValue(text, row[column]) };
  return { ...table, rows };
}

/** A new row of empty strings, inserted at `at` (the end by default). */
export function addRow(table: TestsetTable, at = table.rows.length): TestsetTable {
  const row: TestcaseData = Object.fromEntries(table.columns.map((c) => [c, ""]));
  const rows = table.rows.slice();
  rows.splice(at, 0, row);
  return { ...table, rows };
}

export function deleteRows(table: TestsetTable, indexes: Iterable<number>): TestsetTable {
  const gone = new Set(indexes);
  return { ...table, rows: table.rows.filter((_, i) => !gone.has(i)) };
}

/** Why a column name cannot be used, or undefined when it can. */
export function columnNameProblem(table: TestsetTable, name: string, renaming?: string): string | undefined {
  const trimmed = name.trim();
  if (!trimmed) return "A column needs a name.";
  if (trimmed.length > 200) return "Keep column names under 200 characters.";
  if (trimmed !== renaming && table.columns.includes(trimmed)) return `There is already a column "${trimmed}".`;
  return undefined;
}

export function addColumn(table: TestsetTable, name: string): TestsetTable {
  const column = name.trim();
  if (table.columns.includes(column)) return table;
  return { columns: [...table.columns, column], rows: table.rows.map((row) => ({ ...row, [column]: "" })) };
}

/** Renames in place: the column keeps its position, every row its value. */
export function renameColumn(table: TestsetTable, from: string, to: string): TestsetTable {
  const name = to.trim();
  if (name === from || table.columns.includes(name)) return table;
  const rename = (row: TestcaseData) =>
    Object.fromEntries(Object.entries(row).map(([key, value]) => [key === from ? name : key, value]));
  return { columns: table.columns.map((c) => (c === from ? name : c)), rows: table.rows.map(rename) };
}

export function deleteColumn(table: TestsetTable, name: string): TestsetTable {
  const drop = (row: TestcaseData) => Object.fromEntries(Object.entries(row).filter(([key]) => key !== name));
  return { columns: table.columns.filter((c) => c !== name), rows: table.rows.map(drop) };
}

/**
 * Pastes a block of cells (a spreadsheet's selection) with its top-left at (row, column): rows and
 * columns are added where the block reaches past the table's edge, as in a spreadsheet.
 */
export function pasteGrid(table: TestsetTable, at: { row: number; column: number }, grid: string[][]): TestsetTable {
  const width = Math.max(0, ...grid.map((r) => r.length));
  const columns = table.columns.slice();
  for (let c = columns.length; c < at.column + width; c++) columns.push(freshColumnName(columns, c + 1));
  const added = columns.slice(table.columns.length);
  const rows = table.rows.map((row) =>
    added.length ? { ...row, ...Object.fromEntries(added.map((c) => [c, ""])) } : row,
  );
  for (let r = rows.length; r < at.row + grid.length; r++) rows.push(Object.fromEntries(columns.map((c) => [c, ""])));
  grid.forEach((cells, r) => {
    const index = at.row + r;
    const row = { ...rows[index] };
    cells.forEach((text, c) => {
      const column = columns[at.column + c];
      row[column] = cellValue(text, row[column]);
    });
    rows[index] = row;
  });
  return { columns, rows };
}

function freshColumnName(taken: readonly string[], n: number): string {
  let name = `column_${n}`;
  for (let k = n; taken.includes(name); k++) name = `column_${k + 1}`;
  return name;
}
