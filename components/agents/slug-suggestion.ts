import { SLUG_MAX, SLUG_PATTERN, slugify } from "@/shared/slug-rules";

export { SLUG_MAX, SLUG_PATTERN };

/** What the server derives from a name when no slug is given. */
export const suggestSlug = slugify;

/** A message a person can act on, or null when the slug is fine (empty means "let the server choose"). */
export function slugProblem(slug: string): string | null {
  if (slug === "") return null;
  if (slug.length > SLUG_MAX) return `At most ${SLUG_MAX} characters`;
  if (!SLUG_PATTERN.test(slug)) return "Use letters, digits, - and _, starting and ending with a letter or digit";
  return null;
}
