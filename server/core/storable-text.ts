// In JSON.stringify's output NUL is always the escape `\u0000` and a lone surrogate always an
// escape `\udXXX` (paired ones are written as characters); an escaped backslash is skipped whole
// so `\\u0000` (a backslash, then "u0000") stays as it is.
const UNSTORABLE_ESCAPE = /\\\\|\\u0000|\\ud[89a-f][0-9a-f]{2}/gi;

/**
 * `JSON.stringify(value)` as text PostgreSQL can store: it refuses NUL in `text` and `jsonb` and a
 * lone UTF-16 surrogate in `jsonb`. User content (a span attribute, a tool printing `x\0y`) may
 * hold either, so NUL is removed and a lone surrogate becomes U+FFFD, in keys as in values, in
 * one linear pass over the text.
 */
export function storableJson(value: unknown): string {
  return JSON.stringify(value).replace(UNSTORABLE_ESCAPE, (escape) =>
    escape === "\\\\" ? escape : escape === "\\u0000" ? "" : "\\ufffd",
  );
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** A string as storableJson stores it: without NUL, a lone surrogate made U+FFFD. */
export function storableString(text: string): string {
  return text.replaceAll("\0", "").replace(LONE_SURROGATE, "\ufffd");
}
