import Papa from "papaparse";
import { BadRequestError } from "@/server/core/errors";

export const TESTSET_FILE_TYPES = ["csv", "json"] as const;
export type TestsetFileType = (typeof TESTSET_FILE_TYPES)[number];

/** The id column a download writes (the reference's name); an upload drops it: ids follow content. */
const ID_COLUMN = "__id__";
/** Columns the reference writes that carry nothing here: dropped when empty, refused when not. */
const DROPPED = new Set([ID_COLUMN, "__dedup_id__", "testcase_dedup_id"]);
const UNSUPPORTED = ["__flags__", "__tags__", "__meta__"];

function invalid(message: string): never {
  throw new BadRequestError(message, "invalid_testcases");
}

/**
 * The rows of an uploaded testset file, each a testcase's data. CSV (RFC 4180, read by papaparse):
 * the first line names the columns, every cell is text, blank lines are skipped. JSON: an array of
 * objects. A row that does not fit (a CSV line with more or fewer cells than the header, a JSON
 * element that is not an object) is a 400 naming the row, counted from 1 among the data rows.
 * Pure.
 */
export function parseTestsetFile(text: string, type: TestsetFileType): Record<string, unknown>[] {
  const rows = type === "json" ? jsonRows(text) : csvRows(text);
  return rows.map((row, i) => cleaned(row, i + 1));
}

function jsonRows(text: string): Record<string, unknown>[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    invalid(`The file is not valid JSON: ${(error as Error).message}`);
  }
  if (!Array.isArray(parsed)) invalid("A JSON testset file holds an array of rows (objects)");
  parsed.forEach((row, i) => {
    if (typeof row !== "object" || row === null || Array.isArray(row))
      invalid(`Row ${i + 1} is not an object (a JSON testset file holds an array of objects)`);
  });
  return parsed as Record<string, unknown>[];
}

function csvRows(text: string): Record<string, unknown>[] {
  const result = Papa.parse<Record<string, string>>(text.replace(/^\uFEFF/, ""), {
    header: true,
    skipEmptyLines: true,
  });
  const renamed = Object.values(result.meta.renamedHeaders ?? {});
  if (renamed.length > 0) invalid(`The CSV header names the column "${renamed[0]}" twice`);
  if ((result.meta.fields ?? []).some((field) => field.trim() === ""))
    invalid("The CSV header has a column without a name");
  // A one-column file has no delimiter to detect: papaparse then reads it with a comma, rightly.
  const [error] = result.errors.filter((e) => e.code !== "UndetectableDelimiter");
  if (error) invalid(`Row ${(error.row ?? 0) + 1}: ${error.message}`);
  return result.data;
}

function cleaned(row: Record<string, unknown>, number: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    if (DROPPED.has(key)) continue;
    if (UNSUPPORTED.includes(key)) {
      if (value === "" || value === null || value === undefined) continue;
      invalid(`Row ${number}: ${key} is not supported (a testcase here carries only its data)`);
    }
    out[key] = value;
  }
  if (Object.keys(out).length === 0) invalid(`Row ${number} has no values`);
  return out;
}

/**
 * A testset revision's rows as a file, as the reference writes it: JSON, an array of each row's
 * data with its testcase id under `__id__`; CSV, one column per key of any row (sorted), the id
 * in `__id__`, a value that is not text written as JSON, a missing one empty. Pure.
 */
export function serializeTestset(
  rows: { id?: string; data: Record<string, unknown> }[],
  type: TestsetFileType,
): string {
  const records = rows.map((row): Record<string, unknown> => ({
    ...row.data,
    ...(row.id ? { [ID_COLUMN]: row.id } : {}),
  }));
  if (type === "json") return JSON.stringify(records);
  const fields = [...new Set(records.flatMap((record) => Object.keys(record)))].sort();
  if (fields.length === 0) return "";
  const cell = (value: unknown) =>
    value === undefined || value === null ? "" : typeof value === "string" ? value : JSON.stringify(value);
  return Papa.unparse({ fields, data: records.map((record) => fields.map((field) => cell(record[field]))) });
}

/** The rows a stored testset revision holds (`data.testcases`: `{id, data}` each). */
export function storedRows(
  data: Record<string, unknown> | undefined,
): { id?: string; data: Record<string, unknown> }[] {
  const testcases = Array.isArray(data?.testcases) ? (data.testcases as unknown[]) : [];
  return testcases.map((row) => {
    const r = row as { id?: string; data?: Record<string, unknown> };
    return { id: r.id, data: r.data ?? {} };
  });
}
