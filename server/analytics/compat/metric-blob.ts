import Big from "big.js";
import { continuousSummary, numericSummary, round } from "@/server/core/numeric-summary";

/**
 * The reference implementation's per-bucket summary of one attribute path (`analytics.md` §4),
 * computed from the bucket's values: numeric specs get count, sum, mean, min, max, range, 27
 * interpolated percentiles, spreads and a histogram (continuous) or frequencies (discrete);
 * categorical, binary, string and json specs count and tabulate. Values of the wrong JSON type are
 * skipped.
 */
export const SPEC_TYPES = [
  "numeric/continuous",
  "numeric/discrete",
  "binary",
  "categorical/single",
  "categorical/multiple",
  "string",
  "json",
  "none",
  "*",
] as const;
export type SpecType = (typeof SPEC_TYPES)[number];

export interface MetricSpec {
  type: SpecType;
  path: string;
  bins?: number;
  vmin?: number;
  vmax?: number;
  edge?: boolean;
}

export type Blob = Record<string, unknown>;

/** Whether a spec type has a reducer (`none` and `*` have none). */
export const hasReducer = (type: SpecType) => type !== "none" && type !== "*";

/** The order the reference implementation computes spec types in, and so merges their blobs. */
const MERGE_ORDER: SpecType[] = [
  "numeric/continuous",
  "numeric/discrete",
  "categorical/single",
  "categorical/multiple",
  "binary",
  "string",
  "json",
];

/**
 * One blob for the specs of one path, or undefined when nothing counted. Specs sharing a path merge
 * as the reference implementation merges them: in MERGE_ORDER (then as listed), a later one's keys
 * over an earlier one's, and `type` the first that counted anything.
 */
export function summarise(specs: MetricSpec[], values: unknown[]): Blob | undefined {
  let blob: Blob | undefined;
  const ordered = specs
    .filter((s) => hasReducer(s.type))
    .sort((a, b) => MERGE_ORDER.indexOf(a.type) - MERGE_ORDER.indexOf(b.type));
  for (const spec of ordered) {
    const part = reduce(spec, values);
    if (part) blob = { ...(blob ?? { type: spec.type }), ...part };
  }
  return blob;
}

function reduce(spec: MetricSpec, values: unknown[]): Blob | undefined {
  switch (spec.type) {
    case "numeric/continuous":
    case "numeric/discrete": {
      const nums = values.filter((v): v is number => typeof v === "number" && Number.isFinite(v));
      if (nums.length === 0) return undefined;
      const summary =
        spec.type === "numeric/continuous"
          ? continuousSummary(nums, spec)
          : { ...numericSummary(nums), ...frequencies(nums) };
      return { ...summary, ...exactSumAndMean(nums) };
    }
    case "categorical/single": {
      const strings = values.filter((v): v is string => typeof v === "string");
      return strings.length === 0 ? undefined : { count: strings.length, ...frequencies(strings) };
    }
    case "categorical/multiple": {
      const strings = values.flatMap((v) => (Array.isArray(v) ? v.filter((e) => typeof e === "string") : []));
      return strings.length === 0 ? undefined : { count: strings.length, ...frequencies(strings) };
    }
    case "binary": {
      const bools = values.filter((v): v is boolean => typeof v === "boolean");
      if (bools.length === 0) return undefined;
      const t = bools.filter(Boolean).length;
      // Always true, then false, whatever their counts: the reference implementation's order.
      const entries = [
        { value: true, count: t },
        { value: false, count: bools.length - t },
      ];
      return {
        count: bools.length,
        freq: entries.map((e) => ({ ...e, density: round(e.count / bools.length, 5) })),
        uniq: [true, false],
      };
    }
    case "string": {
      const n = values.filter((v) => typeof v === "string").length;
      return n === 0 ? undefined : { count: n };
    }
    case "json": {
      const n = values.filter((v) => typeof v === "object" && v !== null && !Array.isArray(v)).length;
      return n === 0 ? undefined : { count: n };
    }
    default:
      return undefined;
  }
}

function frequencies<T extends string | number>(values: T[]): { freq: Blob[]; uniq: T[] } {
  const counts = new Map<T, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  const freq = [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .map(([value, count]) => ({ value, count, density: round(count / values.length, 5) }));
  // `uniq` in the order of `freq`, as the reference implementation lists it.
  return { freq, uniq: freq.map((f) => f.value as T) };
}

/**
 * Sum and mean as the reference implementation answers them, PostgreSQL numeric (0.1 + 0.2 is 0.3,
 * not 0.30000000000000004 as doubles add), rounded once to a double.
 */
function exactSumAndMean(nums: number[]): { sum: number; mean: number } {
  const sum = nums.reduce((total, v) => total.plus(v), new Big(0));
  return { sum: Number(sum), mean: Number(sum.div(nums.length)) };
}
