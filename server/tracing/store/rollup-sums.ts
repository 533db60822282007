import Big from "big.js";
import { storableString } from "@/server/core/storable-text";
import { isObject } from "../attributes";
import type { Amounts } from "../metrics";

/**
 * Summing roll-up amounts: the maps a RollupDelta keeps while it sums (rollup-delta.ts), and the
 * merge of a stored row's maps with a delta's before the upsert writes them back (rollup-upsert.ts).
 */

/**
 * Amounts by key while they are summed here: a Map, not an object, so any key (even
 * "constructor" or "__proto__") is only a key, and summing stays fast (objects with keys added
 * one by one turn into slow dictionaries).
 */
export type Sums = Map<string, number>;

export const add = (m: Sums, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);
/** Adds the numeric entries of a span's map (a JSON object, or anything else: nothing). */
export const addEntries = (m: Sums, from: unknown, sign: number) => {
  if (!isObject(from)) return;
  for (const k in from) {
    const v = from[k];
    if (typeof v !== "number") continue;
    // A key already there is storable; only a new one is tested.
    const sum = m.get(k);
    if (sum !== undefined) m.set(k, sum + sign * v);
    else add(m, storable(k), sign * v);
  }
};
/** Adds the sums toJson wrote of a map: keys and values alternating. */
export const addFlat = (m: Sums, flat: unknown[]) => {
  for (let i = 0; i < flat.length; i += 2) add(m, flat[i] as string, flat[i + 1] as number);
};
export const flat = (m: Sums) => {
  const out: (string | number)[] = [];
  for (const [k, v] of m) out.push(k, v);
  return out;
};
/** The non-zero sums as a JSON object ("__proto__" too is defined as a key, not assigned). */
export const nonZero = (m: Sums): Amounts => {
  const out: Amounts = {};
  for (const [k, v] of m) {
    if (v === 0) continue;
    if (k === "__proto__")
      Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
    else out[k] = v;
  }
  return out;
};
export const isEmpty = (m: Amounts) => {
  for (const _ in m) return false;
  return true;
};
// NUL and lone surrogates, which storableJson takes out of the stored span: rare, so tested first.
export const UNSTORABLE = /[\0\ud800-\udfff]/;
export const storable = (s: string) => (UNSTORABLE.test(s) ? storableString(s) : s);

/** The non-zero sums of a stored map of counts and a delta's. */
export function mergedCounts(stored: Amounts, delta: Amounts): Amounts {
  const sums: Sums = new Map(Object.entries(stored));
  for (const [k, v] of Object.entries(delta)) add(sums, k, v);
  return nonZero(sums);
}

/** One entry of jsonb's text form of a map: the key (JSON-escaped) and its value (numeric_out's digits, or null). */
const STORED_ENTRY = /"((?:[^"\\]|\\.)*)": ([^,}]*)/g;

/**
 * The non-zero sums of a stored cost map (jsonb's text) and a delta's, as JSON text: added as
 * decimals (big.js), so the sum is numeric's, digit for digit. Like rollup_map_add, values that
 * are not numbers (a non-finite sum, written as null) are left out.
 */
export function mergedCosts(stored: string, delta: Amounts): string {
  const sums = new Map<string, Big>();
  for (const [, key, value] of stored.matchAll(STORED_ENTRY))
    if (value !== "null") sums.set(JSON.parse(`"${key}"`) as string, new Big(value));
  for (const [k, v] of Object.entries(delta)) {
    if (!Number.isFinite(v)) continue;
    const sum = sums.get(k);
    sums.set(k, sum === undefined ? new Big(v) : sum.plus(v));
  }
  const entries: string[] = [];
  for (const [k, v] of sums) if (!v.eq(0)) entries.push(`${JSON.stringify(k)}:${v.toString()}`);
  return `{${entries.join(",")}}`;
}
