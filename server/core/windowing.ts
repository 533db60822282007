import { asc, desc, gt, gte, lt, lte, type AnyColumn, type SQL } from "drizzle-orm";
import { z } from "zod";

export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 1000;

/** The windowing fields, with the largest page a list allows. */
export function windowingFields(maxLimit: number) {
  return {
    limit: z.number().int().min(1).max(maxLimit).optional(),
    next: z.string().uuid("next must be the cursor returned by the previous page").optional(),
    order: z.enum(["ascending", "descending"]).optional(),
    newest: z.iso.datetime({ offset: true }).optional().describe("Only items created at or before this time"),
    oldest: z.iso.datetime({ offset: true }).optional().describe("Only items created at or after this time"),
  };
}

/** Cursor paging over time-ordered (UUIDv7) ids. `next` is the last id of the previous page. */
export const windowingSchema = z.strictObject(windowingFields(MAX_PAGE_SIZE));

export type Windowing = z.infer<typeof windowingSchema>;

/** A GET list's windowing, from its query string (`?limit=&next=`): the body form's two paging fields. */
export const windowingQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).optional(),
  next: z.string().uuid("next must be the cursor returned by the previous page").optional(),
});

export interface Page<T> {
  items: T[];
  next?: string;
}

/** Fetch `limit + 1` rows; the extra one only says whether another page exists. */
export function toPage<T extends { id: string }>(rows: T[], limit: number): Page<T> {
  if (rows.length <= limit) return { items: rows };
  const items = rows.slice(0, limit);
  return { items, next: items[items.length - 1].id };
}

export interface WindowClause {
  conditions: (SQL | undefined)[];
  orderBy: SQL;
  limit: number;
}

/**
 * Cursor paging on the UUIDv7 id, in `order` (newest first unless the caller defaults otherwise),
 * `defaultLimit` rows when the caller names no limit.
 */
export function windowClause(
  columns: { id: AnyColumn; createdAt: AnyColumn },
  w: Windowing = {},
  defaultOrder: "ascending" | "descending" = "descending",
  defaultLimit = DEFAULT_PAGE_SIZE,
): WindowClause {
  const ascending = (w.order ?? defaultOrder) === "ascending";
  return {
    conditions: [
      w.next ? (ascending ? gt(columns.id, w.next) : lt(columns.id, w.next)) : undefined,
      w.oldest ? gte(columns.createdAt, new Date(w.oldest)) : undefined,
      w.newest ? lte(columns.createdAt, new Date(w.newest)) : undefined,
    ],
    orderBy: ascending ? asc(columns.id) : desc(columns.id),
    limit: w.limit ?? defaultLimit,
  };
}
