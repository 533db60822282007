import { ilike, inArray, or, sql, type AnyColumn, type SQL } from "drizzle-orm";

export { windowClause } from "@/server/core/windowing";

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

/** Case-insensitive substring match with LIKE wildcards in the needle taken literally. */
export function containsText(column: AnyColumn, needle: string): SQL {
  return ilike(column, `%${escapeLike(needle)}%`);
}

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

