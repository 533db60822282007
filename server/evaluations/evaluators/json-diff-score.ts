import { canonicalJson } from "./canonical-json";
import { isRecord } from "./evaluator-values";

/** Nested objects as dotted keys; arrays and scalars are leaf values. */
function flatten(
  value: Record<string, unknown>,
  lowerKeys: boolean,
  prefix = "",
  out = new Map<string, unknown>(),
): Map<string, unknown> {
  for (const [rawKey, child] of Object.entries(value)) {
    const key = `${prefix}${lowerKeys ? rawKey.toLowerCase() : rawKey}`;
    if (isRecord(child) && Object.keys(child).length > 0) flatten(child, lowerKeys, `${key}.`, out);
    else out.set(key, child);
  }
  return out;
}

const kind = (value: unknown) => (value === null ? "null" : Array.isArray(value) ? "array" : typeof value);

export interface JsonDiffOptions {
  /** Compare value types, not values. */
  schemaOnly: boolean;
  /** Count the actual side's extra keys against the score. */
  predictKeys: boolean;
  lowerKeys: boolean;
}

/**
 * The share of the expected object's flattened keys (with `predictKeys`, of both sides' keys)
 * that the actual value reproduces, rounded to 4 digits as the reference implementation does. A
 * non-object actual value scores 0; two empty objects score 1.
 */
export function jsonDiffScore(expected: Record<string, unknown>, actual: unknown, options: JsonDiffOptions): number {
  const want = flatten(expected, options.lowerKeys);
  const got = isRecord(actual) ? flatten(actual, options.lowerKeys) : new Map<string, unknown>();
  const keys = options.predictKeys ? new Set([...want.keys(), ...got.keys()]) : new Set(want.keys());
  if (keys.size === 0) return isRecord(actual) ? 1 : 0;
  let matched = 0;
  for (const key of keys) {
    if (!want.has(key) || !got.has(key)) continue;
    const a = want.get(key);
    const b = got.get(key);
    if (options.schemaOnly ? kind(a) === kind(b) : canonicalJson(a) === canonicalJson(b)) matched++;
  }
  return Math.round((matched / keys.size) * 10_000) / 10_000;
}
