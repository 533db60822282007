import { inArray, sql, type AnyColumn, type SQL } from "drizzle-orm";

/** `x` and `xs` filters together: either or both narrow to their union. */
export function oneOrMany<T>(
  column: AnyColumn,
  one: T | null | undefined,
  many: T[] | null | undefined,
): SQL | undefined {
  const values = [...(many ?? []), ...(one !== null && one !== undefined ? [one] : [])];
  if (one === undefined && many === undefined) return undefined;
  if (one === null && (many === null || many === undefined)) return undefined;
  return values.length ? inArray(column, values as unknown[]) : sql`false`;
}

/**
 * A list without `windowing.limit` answers every row up to these many, then pages: runs and
 * queues, and the per-cell entities (scenarios, results, metrics) of a run.
 */
export const UNPAGED_RUNS = 100_000;
export const UNPAGED_CELLS = 1_000_000;
