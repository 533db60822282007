import { binValue } from "@/server/tracing";

/**
 * Percentiles read from a log histogram (`{bin: count}`, bins growing by 2%): for each of `qs`
 * (ascending), the representative value of the bin holding its rank, within 1% of the exact
 * value; 0 for an empty histogram. The bins are sorted once for all of them.
 */
export function histogramQuantiles(histogram: Record<string, number>, qs: readonly number[]): number[] {
  const bins: [number, number][] = [];
  let total = 0;
  for (const bin in histogram) {
    const count = histogram[bin];
    if (count > 0) {
      bins.push([Number(bin), count]);
      total += count;
    }
  }
  if (total === 0) return qs.map(() => 0);
  bins.sort((a, b) => a[0] - b[0]);
  const out: number[] = [];
  let i = 0;
  let seen = bins[0][1];
  for (const q of qs) {
    const rank = Math.max(1, Math.ceil(q * total));
    while (seen < rank && i < bins.length - 1) seen += bins[++i][1];
    out.push(round(binValue(bins[i][0])));
  }
  return out;
}

const round = (ms: number) => Math.round(ms * 1000) / 1000;
