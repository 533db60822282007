/** A page's `searchParams` as Next.js hands them over. */
export type SearchParams = Record<string, string | string[] | undefined>;

/** The first value of a query parameter; an absent or empty one is undefined. */
export function firstParam(value: string | string[] | undefined): string | undefined {
  return (Array.isArray(value) ? value[0] : value) || undefined;
}
