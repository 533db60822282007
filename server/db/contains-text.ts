import { ilike, type AnyColumn, type SQL } from "drizzle-orm";

/**
 * Case-insensitive substring match, the `name`/`description` filter of every query: LIKE's
 * wildcards (`%`, `_`) and its escape in the needle are taken literally, so "50%" finds "50%" only.
 */
export function containsText(column: AnyColumn, needle: string): SQL {
  return ilike(column, `%${needle.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
}
