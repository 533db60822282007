/** The environments every project starts with, in promotion order; others follow by name. */
const ORDER = ["development", "staging", "production"];

export interface EnvironmentColumn {
  slug: string;
  name: string;
}

/** One column per environment of the project, or the usual three while the list loads. */
export function environmentColumns(
  environments: ReadonlyArray<{ slug: string; name: string }> | undefined,
): EnvironmentColumn[] {
  if (!environments) return ORDER.map((slug) => ({ slug, name: capitalize(slug) }));
  const rank = (slug: string) => (ORDER.includes(slug) ? ORDER.indexOf(slug) : ORDER.length);
  return [...environments]
    .sort((a, b) => rank(a.slug) - rank(b.slug) || a.slug.localeCompare(b.slug))
    .map(({ slug, name }) => ({ slug, name: capitalize(name || slug) }));
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
