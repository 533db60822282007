/**
 * JSON with object keys sorted at every depth, so two values that differ only in key order print
 * (and hash) the same: the server compares tool-call arguments and hashes content with it, the
 * playground's diff prints with it (`indent` 2) so a diff shows only real changes. Undefined
 * fields are left out, as JSON.stringify leaves them; an undefined value prints as `null`.
 */
export function stableStringify(value: unknown, indent?: number): string {
  return JSON.stringify(sortKeys(value) ?? null, null, indent);
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== "object") return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) sorted[key] = sortKeys((value as Record<string, unknown>)[key]);
  return sorted;
}
