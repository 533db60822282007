/**
 * The reference implementation's summary of a list of numbers (its analytics blob, `analytics.md`
 * §4): count, sum, mean, min, max, range, 27 interpolated percentiles, the spreads between pairs
 * of them, the spreads relative to the median where they mean something, and a histogram. Tracing
 * analytics and evaluation metrics both answer it, so a client reads one shape.
 */
export type NumericSummary = Record<string, unknown>;

/** How a histogram is binned: `bins` (default ⌈√n⌉), the range (default the observed one), edge or centred bins. */
export interface HistogramOptions {
  bins?: number;
  vmin?: number;
  vmax?: number;
  edge?: boolean;
}

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

/** Every field but the histogram; `nums` is not empty. */
export function numericSummary(nums: number[]): NumericSummary {
  const sorted = [...nums].sort((a, b) => a - b);
  const sum = sorted.reduce((s, v) => s + v, 0);
  const min = sorted[0];
  const max = sorted[sorted.length - 1];
  const pcts = Object.fromEntries(PCTS.map(([name, q]) => [name, interpolate(sorted, q)]));
  const iqrs = Object.fromEntries(SPREADS.map(([n, lo, hi]) => [`iqr${n}`, pcts[hi] - pcts[lo]]));
  const out: NumericSummary = {
    count: sorted.length,
    sum,
    mean: sum / sorted.length,
    min,
    max,
    range: max - min,
    pcts,
    iqrs,
  };
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

function histogram(nums: number[], spec: HistogramOptions): NumericSummary[] {
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

/** The whole summary with its histogram; `nums` is not empty. */
export function continuousSummary(nums: number[], options: HistogramOptions = {}): NumericSummary {
  return { ...numericSummary(nums), hist: histogram(nums, options) };
}

export function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
