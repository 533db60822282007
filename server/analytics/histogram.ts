import { binValue } from "@/server/tracing";

/**
 * A percentile read from a log histogram (`{bin: count}`, bins growing by 2%): the representative
 * value of the bin holding the rank, within 1% of the exact value. 0 for an empty histogram.
 */
export function histogramQuantile(histogram: Record<string, number>, q: number): number {
  const bins = Object.entries(histogram)
    .map(([bin, count]) => [Number(bin), count] as const)
    .filter(([, count]) => count > 0)
    .sort((a, b) => a[0] - b[0]);
  const total = bins.reduce((sum, [, count]) => sum + count, 0);
  if (total === 0) return 0;
  const rank = Math.max(1, Math.ceil(q * total));
  let seen = 0;
  for (const [bin, count] of bins) {
    seen += count;
    if (seen >= rank) return round(binValue(bin));
  }
  return round(binValue(bins[bins.length - 1][0]));
}

const round = (ms: number) => Math.round(ms * 1000) / 1000;
