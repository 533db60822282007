/**
 * JSON with object keys sorted at every depth and two-space indentation, so two documents that
 * differ only in key order print the same and a diff shows only real changes.
 */
export function stableStringify(value: unknown): string {
  if (value === undefined) return "";
  return JSON.stringify(sortKeys(value), null, 2);
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== "object") return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) sorted[key] = sortKeys((value as Record<string, unknown>)[key]);
  return sorted;
}
