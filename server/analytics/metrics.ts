import type { Amounts, SpanSums } from "@/server/tracing";
import { Histogram } from "./histogram";

/** The sums a source yields per bucket and group (a roll-up row's, plus scores); merging two is adding them. */
export interface Accumulator extends Omit<SpanSums, "latency" | "ttft"> {
  latency: Histogram;
  ttft: Histogram;
  /** Live evaluators' results (evaluation_score_rollups): counted, numeric scores and their sum, verdicts, passes. */
  results: number;
  scores: number;
  scoreSum: number;
  verdicts: number;
  passes: number;
}

/**
 * Results of live evaluations' evaluators on the runs of a bucket or group. `mean` (of numeric
 * `score` outputs) and `pass_rate` (share of `success: true` among boolean `success` outputs)
 * are left out where there is nothing to average: a score of 0 is a verdict, not an absence.
 */
export interface ScoreMetrics {
  /** Results with a numeric score or a pass/fail verdict. */
  count: number;
  score_count: number;
  mean?: number;
  verdict_count: number;
  pass_rate?: number;
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
  scores: ScoreMetrics;
}

export const emptyAccumulator = (): Accumulator => ({
  spans: 0,
  errors: 0,
  durationMs: 0,
  ttftCount: 0,
  ttftMs: 0,
  latency: new Histogram(),
  ttft: new Histogram(),
  tokens: {},
  costs: {},
  results: 0,
  scores: 0,
  scoreSum: 0,
  verdicts: 0,
  passes: 0,
});

/** Adds one scalar sum, named as the facts' columns are. */
export function addScalar(acc: Accumulator, name: string, value: number): void {
  if (name === "spans") acc.spans += value;
  else if (name === "errors") acc.errors += value;
  else if (name === "duration_ms") acc.durationMs += value;
  else if (name === "ttft_count") acc.ttftCount += value;
  else if (name === "ttft_ms") acc.ttftMs += value;
  else if (name === "results") acc.results += value;
  else if (name === "scores") acc.scores += value;
  else if (name === "score_sum") acc.scoreSum += value;
  else if (name === "verdicts") acc.verdicts += value;
  else if (name === "passes") acc.passes += value;
}

export type MapName = "latency" | "ttft" | "tokens" | "costs";

/**
 * Adds one row of a source's aggregate, named as the facts' columns are: `kind` "n" a scalar,
 * else one entry of that map (a histogram's key is its bin).
 */
export function addFact(acc: Accumulator, kind: string, name: string, value: number): void {
  if (kind === "n") return addScalar(acc, name, value);
  const map = kind as MapName;
  if (map === "latency" || map === "ttft") acc[map].add(Number(name), value);
  else acc[map][name] = (acc[map][name] ?? 0) + value;
}

const AMOUNTS = ["tokens", "costs"] as const;

export function addInto(into: Accumulator, from: Accumulator): Accumulator {
  into.spans += from.spans;
  into.errors += from.errors;
  into.durationMs += from.durationMs;
  into.ttftCount += from.ttftCount;
  into.ttftMs += from.ttftMs;
  into.results += from.results;
  into.scores += from.scores;
  into.scoreSum += from.scoreSum;
  into.verdicts += from.verdicts;
  into.passes += from.passes;
  into.latency.addAll(from.latency);
  into.ttft.addAll(from.ttft);
  // for-in, not Object.entries: no array per entry.
  for (const name of AMOUNTS) {
    const source = from[name];
    const target = into[name];
    for (const k in source) target[k] = (target[k] ?? 0) + source[k];
  }
  return into;
}

const QUANTILES = [0.5, 0.9, 0.99];

/** The wire metrics of some sums: an empty bucket is all zeros, so a chart has no holes. */
export function toMetrics(acc: Accumulator): AnalyticsMetrics {
  const ttft = percentiles(acc.ttft, acc.ttftMs, acc.ttftCount);
  return {
    count: acc.spans,
    errors: acc.errors,
    error_rate: acc.spans > 0 ? round(acc.errors / acc.spans, 6) : 0,
    tokens: amounts(acc.tokens, 0),
    costs: amounts(acc.costs, 12),
    latency_ms: percentiles(acc.latency, acc.durationMs, acc.spans),
    ttft_ms: { count: acc.ttftCount, mean: ttft.mean, p50: ttft.p50, p90: ttft.p90, p99: ttft.p99 },
    scores: {
      count: acc.results,
      score_count: acc.scores,
      ...(acc.scores > 0 ? { mean: round(acc.scoreSum / acc.scores, 6) } : {}),
      verdict_count: acc.verdicts,
      ...(acc.verdicts > 0 ? { pass_rate: round(acc.passes / acc.verdicts, 6) } : {}),
    },
  };
}

function percentiles(histogram: Histogram, sum: number, count: number): Percentiles {
  const [p50, p90, p99] = histogram.quantiles(QUANTILES);
  return { mean: count > 0 ? round(sum / count, 3) : 0, p50, p90, p99 };
}

/** Rounded; an amount that rounds to nothing is left out (a roll-up's double sums may leave 1e-19 where a scan has 0). */
function amounts(a: Amounts, digits: number): Amounts {
  const out: Amounts = {};
  for (const k in a) {
    const r = round(a[k], digits);
    if (r !== 0) out[k] = r;
  }
  return out;
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
