import { binValue } from "@/server/tracing";

/**
 * Percentiles read from a log histogram (`{bin: count}`, bins growing by 2%): for each of `qs`
 * (ascending), the representative value of the bin holding its rank, within 1% of the exact
 * value; 0 for an empty histogram. The bins are sorted once for all of them.
 */
export function histogramQuantiles(histogram: Record<string, number>, qs: readonly number[]): number[] {
  // Bin numbers in a typed array, sorted natively: no pair per bin (a 90-day query by day reads
  // a few hundred histograms of a hundred bins or more).
  let total = 0;
  let n = 0;
  for (const bin in histogram) if (histogram[bin] > 0) n++;
  const bins = new Float64Array(n);
  n = 0;
  for (const bin in histogram) {
    const count = histogram[bin];
    if (count > 0) {
      bins[n++] = Number(bin);
      total += count;
    }
  }
  if (total === 0) return qs.map(() => 0);
  bins.sort();
  const out: number[] = [];
  let i = 0;
  let seen = histogram[bins[0]];
  for (const q of qs) {
    const rank = Math.max(1, Math.ceil(q * total));
    while (seen < rank && i < bins.length - 1) seen += histogram[bins[++i]];
    out.push(round(binValue(bins[i])));
  }
  return out;
}

const round = (ms: number) => Math.round(ms * 1000) / 1000;
