import { and, asc, desc, gt, gte, ilike, inArray, lt, lte, or, sql, type AnyColumn, type SQL } from "drizzle-orm";
import { DEFAULT_PAGE_SIZE, type Windowing } from "@/server/core/windowing";

/** Filters shared by artifact, variant and revision queries. */
export interface EntityFilter {
  ids?: string[];
  slugs?: string[];
  name?: string;
  tags?: Record<string, unknown>;
}

export function entityConditions(
  columns: { id: AnyColumn; slug: AnyColumn; name?: AnyColumn; tags?: AnyColumn },
  filter: EntityFilter,
): (SQL | undefined)[] {
  return [
    filter.ids?.length ? inArray(columns.id, filter.ids) : undefined,
    filter.slugs?.length ? inArray(columns.slug, filter.slugs) : undefined,
    filter.name && columns.name ? containsText(columns.name, filter.name) : undefined,
    filter.tags && columns.tags ? sql`${columns.tags} @> ${JSON.stringify(filter.tags)}::jsonb` : undefined,
  ];
}

/** Artifact or variant references as an OR of id and slug matches. */
export function refConditions(columns: { id: AnyColumn; slug: AnyColumn }, refs: { id?: string; slug?: string }[] | undefined) {
  if (!refs?.length) return undefined;
  const parts = refs.map((r) => (r.id ? sql`${columns.id} = ${r.id}` : sql`${columns.slug} = ${r.slug}`));
  return or(...parts);
}

export interface WindowClause {
  conditions: (SQL | undefined)[];
  orderBy: SQL;
  limit: number;
}

/** Cursor paging on the UUIDv7 id: newest first unless `order` is ascending. */
export function windowClause(columns: { id: AnyColumn; createdAt: AnyColumn }, w: Windowing = {}): WindowClause {
  const ascending = w.order === "ascending";
  return {
    conditions: [
      w.next ? (ascending ? gt(columns.id, w.next) : lt(columns.id, w.next)) : undefined,
      w.oldest ? gte(columns.createdAt, new Date(w.oldest)) : undefined,
      w.newest ? lte(columns.createdAt, new Date(w.newest)) : undefined,
    ],
    orderBy: ascending ? asc(columns.id) : desc(columns.id),
    limit: w.limit ?? DEFAULT_PAGE_SIZE,
  };
}

/** Case-insensitive substring match with LIKE wildcards in the needle taken literally. */
export function containsText(column: AnyColumn, needle: string): SQL {
  return ilike(column, `%${escapeLike(needle)}%`);
}

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

