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

/** JSONB containment for `flags`, `tags`, `meta` filters. */
export function jsonContains(column: AnyColumn, value: Record<string, unknown> | null | undefined): SQL | undefined {
  return value ? sql`coalesce(${column}, '{}'::jsonb) @> ${JSON.stringify(value)}::jsonb` : undefined;
}
