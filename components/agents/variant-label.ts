/**
 * How a variant is named wherever a person picks or reads one: the name given when it was forked,
 * else its slug (the default variant, API-made variants without a name).
 */
export function variantLabel(variant: { name?: string | null; slug: string }): string {
  const name = variant.name?.trim();
  return name ? name : variant.slug;
}
