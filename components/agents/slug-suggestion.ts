/** Mirrors the server's slug rule: letters, digits, `-` and `_`, starting and ending with a letter or digit. */
export const SLUG_PATTERN = /^[A-Za-z0-9](?:[A-Za-z0-9_-]*[A-Za-z0-9])?$/;
export const SLUG_MAX = 128;

/** `My Agent v2!` -> `my-agent-v2`, what the server derives from a name when no slug is given. */
export function suggestSlug(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, SLUG_MAX - 8)
    .replace(/-+$/, "");
}

/** A message a person can act on, or null when the slug is fine (empty means "let the server choose"). */
export function slugProblem(slug: string): string | null {
  if (slug === "") return null;
  if (slug.length > SLUG_MAX) return `At most ${SLUG_MAX} characters`;
  if (!SLUG_PATTERN.test(slug)) return "Use letters, digits, - and _, starting and ending with a letter or digit";
  return null;
}
