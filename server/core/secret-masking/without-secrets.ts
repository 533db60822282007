/** Field names whose last word marks a secret: `secret`, `webhook_secret`, `password`, `key`, `token`, ... */
const SECRET_WORDS = new Set([
  "secret",
  "secrets",
  "password",
  "token",
  "hash",
  "key",
  "authorization",
  "credential",
  "credentials",
  "cookie",
  "ciphertext",
  "sealed",
  "value",
  "headers",
]);

function lastWord(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .split(/[_\-\s.]+/)
    .filter(Boolean);
  return words[words.length - 1] ?? "";
}

/**
 * `value` without any field that may hold a secret, at any depth: what the audit log keeps as a
 * change's before and after. Callers pass snapshots of safe fields already; this is the second
 * line, so a field added to a record later cannot carry a secret into the log.
 */
export function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (value instanceof Date) return value.toISOString();
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(value)) {
    if (field === undefined || SECRET_WORDS.has(lastWord(name))) continue;
    out[name] = withoutSecrets(field);
  }
  return out;
}
