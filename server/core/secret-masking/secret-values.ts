/**
 * Masking of known secret values: a provider key, a vault secret, an MCP header a tool was given,
 * replaced wherever it occurs, before a text leaves for the model, a span or an error. Unlike a
 * project's rules (`Redactor`), these are exact values the service holds, not patterns.
 */

/** What a secret becomes in a span (`recordSpans`' `redact` option). */
export const REDACTED_SECRET = "[REDACTED]";
/** What a secret becomes in a tool's result or error the model reads. */
export const MASKED_SECRET = "[secret]";

/** `text` with every occurrence of each secret replaced by `marker`; empty secrets are skipped. */
export function maskSecretValues(text: string, secrets: readonly string[], marker: string): string {
  let out = text;
  for (const secret of secrets) if (secret && out.includes(secret)) out = out.split(secret).join(marker);
  return out;
}

/**
 * `value` with every secret replaced by `marker` in each string, keys as values, at any depth.
 * Only what holds a secret is copied (it runs on every agent run's spans, which almost never hold
 * one); the rest is shared, and the input is never changed.
 */
export function maskSecretValuesDeep(value: unknown, secrets: readonly string[], marker: string): unknown {
  if (typeof value === "string") return maskSecretValues(value, secrets, marker);
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const masked = maskSecretValuesDeep(value[i], secrets, marker);
      if (masked !== value[i]) (copy ??= value.slice())[i] = masked;
    }
    return copy ?? value;
  }
  if (value !== null && typeof value === "object") {
    let changed = false;
    const entries = Object.entries(value).map(([k, v]) => {
      const key = maskSecretValues(k, secrets, marker);
      const masked = maskSecretValuesDeep(v, secrets, marker);
      if (key !== k || masked !== v) changed = true;
      return [key, masked] as const;
    });
    return changed ? Object.fromEntries(entries) : value;
  }
  return value;
}
