import { inArray, or, sql, type AnyColumn, type SQL } from "drizzle-orm";
import { containsText } from "@/server/db";

export { windowClause } from "@/server/core/windowing";

/** Filters shared by artifact, variant and revision queries; all of them are ANDed. */
export interface EntityFilter {
  ids?: string[];
  slugs?: string[];
  name?: string;
  description?: string;
  flags?: Record<string, boolean>;
  tags?: Record<string, unknown>;
  meta?: Record<string, unknown>;
}

interface FilterColumns {
  id: AnyColumn;
  slug: AnyColumn;
  name: AnyColumn;
  description: AnyColumn;
  flags: AnyColumn;
  tags: AnyColumn;
  meta: AnyColumn;
}

/**
 * `flags`, `tags` and `meta` match by JSON containment (`meta` too: ours is jsonb, the compat API's
 * is not and ignores it). A domain's role flags count as set on every row, stored or not.
 */
export function entityConditions(
  columns: FilterColumns,
  filter: EntityFilter,
  roleFlags: Record<string, boolean> = {},
): (SQL | undefined)[] {
  const flags = Object.keys(roleFlags).length
    ? sql`(${columns.flags} || ${JSON.stringify(roleFlags)}::jsonb)`
    : sql`${columns.flags}`;
  return [
    filter.ids?.length ? inArray(columns.id, filter.ids) : undefined,
    filter.slugs?.length ? inArray(columns.slug, filter.slugs) : undefined,
    filter.name ? containsText(columns.name, filter.name) : undefined,
    filter.description ? containsText(columns.description, filter.description) : undefined,
    filter.flags ? sql`${flags} @> ${JSON.stringify(filter.flags)}::jsonb` : undefined,
    filter.tags ? sql`${columns.tags} @> ${JSON.stringify(filter.tags)}::jsonb` : undefined,
    filter.meta ? sql`${columns.meta} @> ${JSON.stringify(filter.meta)}::jsonb` : undefined,
  ];
}

/** Artifact or variant references as an OR of id and slug matches. */
export function refConditions(
  columns: { id: AnyColumn; slug: AnyColumn },
  refs: { id?: string; slug?: string }[] | undefined,
) {
  if (!refs?.length) return undefined;
  const parts = refs.map((r) => (r.id ? sql`${columns.id} = ${r.id}` : sql`${columns.slug} = ${r.slug}`));
  return or(...parts);
}
