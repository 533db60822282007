/** Numeric summary in the reference implementation's metric shape, with the percentiles the issue asks for. */
export function numericStats(values: number[]) {
  if (values.length === 0) return { count: 0 };
  const sorted = [...values].sort((a, b) => a - b);
  const sum = sorted.reduce((a, b) => a + b, 0);
  const min = sorted[0];
  const max = sorted[sorted.length - 1];
  return {
    count: sorted.length,
    sum,
    mean: sum / sorted.length,
    min,
    max,
    range: max - min,
    pcts: { p50: percentile(sorted, 50), p90: percentile(sorted, 90) },
  };
}

/** Linear interpolation between closest ranks. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 1) return sorted[0];
  const rank = (p / 100) * (sorted.length - 1);
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  return sorted[low] + (sorted[high] - sorted[low]) * (rank - low);
}

/** A boolean metric: frequencies, and `mean` (the share of `true`), which is the success rate for `success`. */
export function binaryStats(values: boolean[]) {
  const trues = values.filter(Boolean).length;
  const count = values.length;
  const density = (n: number) => (count ? n / count : 0);
  return {
    count,
    mean: density(trues),
    freq: [
      { value: true, count: trues, density: density(trues) },
      { value: false, count: count - trues, density: density(count - trues) },
    ],
    uniq: [true, false],
  };
}
