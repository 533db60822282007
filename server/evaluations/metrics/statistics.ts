import { continuousSummary } from "@/server/core/numeric-summary";

/** A numeric metric: the reference implementation's summary (27 percentiles, spreads, histogram), as tracing analytics answers it. */
export function numericStats(values: number[]) {
  return values.length === 0 ? { count: 0 } : continuousSummary(values);
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
