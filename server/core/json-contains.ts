import { sql, type AnyColumn, type SQL } from "drizzle-orm";

/**
 * JSONB containment (`@>`) for filters on `flags`, `tags`, `meta`, `references`: no filter when the
 * value is absent, and a NULL column contains nothing but `{}`.
 */
export function jsonContains(column: AnyColumn | SQL, value: unknown): SQL | undefined {
  if (value === null || value === undefined) return undefined;
  return sql`coalesce(${column}, '{}'::jsonb) @> ${JSON.stringify(value)}::jsonb`;
}
