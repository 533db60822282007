import { histogramQuantile } from "./histogram";

export type Amounts = Record<string, number>;

/** The sums a source yields per bucket and group; merging two is adding them. */
export interface Accumulator {
  spans: number;
  errors: number;
  durationMs: number;
  ttftCount: number;
  ttftMs: number;
  latency: Amounts;
  ttft: Amounts;
  tokens: Amounts;
  costs: Amounts;
}

export interface Percentiles {
  mean: number;
  p50: number;
  p90: number;
  p99: number;
}

export interface AnalyticsMetrics {
  count: number;
  errors: number;
  error_rate: number;
  tokens: Amounts;
  costs: Amounts;
  latency_ms: Percentiles;
  ttft_ms: Percentiles & { count: number };
}

export const emptyAccumulator = (): Accumulator => ({
  spans: 0,
  errors: 0,
  durationMs: 0,
  ttftCount: 0,
  ttftMs: 0,
  latency: {},
  ttft: {},
  tokens: {},
  costs: {},
});

export function addInto(into: Accumulator, from: Accumulator): Accumulator {
  into.spans += from.spans;
  into.errors += from.errors;
  into.durationMs += from.durationMs;
  into.ttftCount += from.ttftCount;
  into.ttftMs += from.ttftMs;
  for (const name of ["latency", "ttft", "tokens", "costs"] as const) {
    for (const [k, v] of Object.entries(from[name])) into[name][k] = (into[name][k] ?? 0) + v;
  }
  return into;
}

/** The wire metrics of some sums: an empty bucket is all zeros, so a chart has no holes. */
export function toMetrics(acc: Accumulator): AnalyticsMetrics {
  const percentiles = (histogram: Amounts, sum: number, count: number): Percentiles => ({
    mean: count > 0 ? round(sum / count, 3) : 0,
    p50: histogramQuantile(histogram, 0.5),
    p90: histogramQuantile(histogram, 0.9),
    p99: histogramQuantile(histogram, 0.99),
  });
  return {
    count: acc.spans,
    errors: acc.errors,
    error_rate: acc.spans > 0 ? round(acc.errors / acc.spans, 6) : 0,
    tokens: amounts(acc.tokens, 0),
    costs: amounts(acc.costs, 12),
    latency_ms: percentiles(acc.latency, acc.durationMs, acc.spans),
    ttft_ms: { count: acc.ttftCount, ...percentiles(acc.ttft, acc.ttftMs, acc.ttftCount) },
  };
}

/** Rounded; an amount that rounds to nothing is left out (a roll-up's double sums may leave 1e-19 where a scan has 0). */
function amounts(a: Amounts, digits: number): Amounts {
  const out: Amounts = {};
  for (const [k, v] of Object.entries(a)) {
    const r = round(v, digits);
    if (r !== 0) out[k] = r;
  }
  return out;
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
