/** Key of an embed reference; the neutral stand-in for the service's own brand. */
export const EMBED_KEY = "@svc.embed";

/**
 * True for `{"@svc.embed": {...}}`: a tools or skills entry that points at another workflow's
 * parameters. Embeds are resolved to inline entries before validation; the template schema
 * itself never accepts one.
 */
export function isEmbedReference(value: unknown): value is { [EMBED_KEY]: Record<string, unknown> } {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const embed = (value as Record<string, unknown>)[EMBED_KEY];
  return typeof embed === "object" && embed !== null && !Array.isArray(embed);
}
