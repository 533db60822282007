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

const PCTS: [string, number][] = [
  ["p00.05", 0.0005],
  ["p00.1", 0.001],
  ["p00.5", 0.005],
  ["p01", 0.01],
  ["p02.5", 0.025],
  ["p05", 0.05],
  ["p10", 0.1],
  ["p12.5", 0.125],
  ["p20", 0.2],
  ["p25", 0.25],
  ["p30", 0.3],
  ["p37.5", 0.375],
  ["p40", 0.4],
  ["p50", 0.5],
  ["p60", 0.6],
  ["p62.5", 0.625],
  ["p70", 0.7],
  ["p75", 0.75],
  ["p80", 0.8],
  ["p87.5", 0.875],
  ["p90", 0.9],
  ["p95", 0.95],
  ["p97.5", 0.975],
  ["p99", 0.99],
  ["p99.5", 0.995],
  ["p99.9", 0.999],
  ["p99.95", 0.9995],
];
const SPREADS: [string, string, string][] = [
  ["25", "p37.5", "p62.5"],
  ["50", "p25", "p75"],
  ["75", "p12.5", "p87.5"],
  ["80", "p10", "p90"],
  ["90", "p05", "p95"],
  ["95", "p02.5", "p97.5"],
  ["99", "p00.5", "p99.5"],
  ["99.9", "p00.05", "p99.95"],
];

/** Whether a spec type has a reducer (`none` and `*` have none). */
export const hasReducer = (type: SpecType) => type !== "none" && type !== "*";

/**
 * One blob for the specs of one path (merged, as the reference implementation merges them), or
 * undefined when nothing counted.
 */
export function summarise(specs: MetricSpec[], values: unknown[]): Blob | undefined {
  const blob: Blob = {};
  for (const spec of specs.filter((s) => hasReducer(s.type))) {
    const part = reduce(spec, values);
    if (part) Object.assign(blob, part, { type: spec.type });
  }
  return Object.keys(blob).length > 0 ? blob : undefined;
}

function reduce(spec: MetricSpec, values: unknown[]): Blob | undefined {
  switch (spec.type) {
    case "numeric/continuous":
    case "numeric/discrete": {
      const nums = values.filter((v): v is number => typeof v === "number" && Number.isFinite(v));
      if (nums.length === 0) return undefined;
      const out = numeric(nums);
      if (spec.type === "numeric/continuous") out.hist = histogram(nums, spec);
      else Object.assign(out, frequencies(nums));
      return out;
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
      const f = bools.length - t;
      const entries = [
        { value: true, count: t },
        { value: false, count: f },
      ].sort((a, b) => b.count - a.count || Number(a.value) - Number(b.value));
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

function numeric(nums: number[]): Blob {
  const sorted = [...nums].sort((a, b) => a - b);
  const sum = sorted.reduce((s, v) => s + v, 0);
  const min = sorted[0];
  const max = sorted[sorted.length - 1];
  const pcts = Object.fromEntries(PCTS.map(([name, q]) => [name, interpolate(sorted, q)]));
  const iqrs = Object.fromEntries(SPREADS.map(([n, lo, hi]) => [`iqr${n}`, pcts[hi] - pcts[lo]]));
  const out: Blob = { count: sorted.length, sum, mean: sum / sorted.length, min, max, range: max - min, pcts, iqrs };
  const [p01, p50, p99] = [pcts.p01, pcts.p50, pcts.p99];
  if (p01 * p99 >= 0 && Math.abs(p50) >= Math.abs(p99) / 100 && Math.abs(p50) >= Math.abs(p01) / 100) {
    out.pscs = Object.fromEntries(
      SPREADS.map(([n, lo, hi]) => [`psc${n}`, p50 === 0 ? 0 : (pcts[hi] - pcts[lo]) / p50]),
    );
  }
  return out;
}

/** PostgreSQL's percentile_cont: linear interpolation at position q·(n−1). */
function interpolate(sorted: number[], q: number): number {
  const pos = q * (sorted.length - 1);
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

function histogram(nums: number[], spec: MetricSpec): Blob[] {
  const observedMin = Math.min(...nums);
  const observedMax = Math.max(...nums);
  const vmin = spec.vmin ?? observedMin;
  const vmax = spec.vmax ?? observedMax;
  const kept = nums.filter((v) => v >= vmin);
  const bins = kept.length <= 1 || vmin === vmax ? 1 : Math.max(1, spec.bins ?? Math.ceil(Math.sqrt(kept.length)));
  const edge = spec.edge ?? true;
  const width = bins === 1 ? vmax - vmin : edge ? (vmax - vmin) / bins : (vmax - vmin) / (bins - 1);
  const origin = edge || bins === 1 ? vmin : vmin - width / 2;
  const counts = new Array<number>(bins).fill(0);
  for (const v of kept) {
    const i = width === 0 ? 0 : Math.floor((Math.min(v, vmax) - origin) / width);
    counts[Math.min(Math.max(i, 0), bins - 1)]++;
  }
  return counts.map((count, i) => ({
    bin: i + 1,
    count,
    interval: [origin + i * width, origin + (i + 1) * width],
    density: round(count / kept.length, 5),
  }));
}

function frequencies<T extends string | number>(values: T[]): { freq: Blob[]; uniq: T[] } {
  const counts = new Map<T, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  const freq = [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .map(([value, count]) => ({ value, count, density: round(count / values.length, 5) }));
  return { freq, uniq: [...counts.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)) };
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
