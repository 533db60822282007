/** What the aggregates read of a results row (the `evaluations.table` row shape, structurally). */
export interface AggregateRow {
  output_status?: string;
  latency_ms?: number;
  tokens?: number;
  cost_usd?: number;
  scores: Record<string, ScoreCell>;
}

export interface ScoreCell {
  status: string;
  score?: number;
  outputs?: unknown;
}

const FAILED = new Set(["failure", "errors"]);

/**
 * Whether an evaluator passed a row: its own `success` when it reports one (a judge's score
 * against its threshold), else a score of 1; false when it failed to run; undefined while it
 * has no verdict.
 */
export function cellPassed(cell: ScoreCell | undefined): boolean | undefined {
  if (!cell) return undefined;
  if (FAILED.has(cell.status)) return false;
  const success = (cell.outputs as { success?: unknown } | null | undefined)?.success;
  if (typeof success === "boolean") return success;
  return typeof cell.score === "number" ? cell.score >= 1 : undefined;
}

export interface EvaluatorAggregate {
  name: string;
  /** Mean score over the rows that have one. */
  mean?: number;
  /** Rows it passed (`cellPassed`) out of the rows scored. */
  passed: number;
  scored: number;
  failed: number;
  /** Count of scores per tenth: bucket i holds [i/10, (i+1)/10), the last one includes 1. */
  histogram: number[];
}

export interface RunAggregates {
  rows: number;
  done: number;
  errors: number;
  evaluators: EvaluatorAggregate[];
  latency: { mean?: number; p50?: number; p95?: number; histogram: number[]; max?: number };
  tokens: number;
  /** Undefined when a row used tokens of a model without a price: a partial sum would read as the whole. */
  costUsd: number | undefined;
}

const BUCKETS = 10;

/** The value at quantile q of sorted values (nearest rank). */
export function quantile(sorted: number[], q: number): number | undefined {
  if (sorted.length === 0) return undefined;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

/** Counts per bucket of equal width over [0, max]; all values in the first bucket when max is 0. */
export function histogram(values: number[], max: number, buckets = BUCKETS): number[] {
  const counts = new Array<number>(buckets).fill(0);
  for (const v of values) {
    const index = max > 0 ? Math.min(buckets - 1, Math.floor((v / max) * buckets)) : 0;
    counts[Math.max(0, index)]++;
  }
  return counts;
}

const mean = (values: number[]) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : undefined);

/** The numbers at the top of a results page: per evaluator, then latency, tokens and cost. */
export function aggregateRun(rows: AggregateRow[], evaluatorNames: string[]): RunAggregates {
  const evaluators = evaluatorNames.map((name): EvaluatorAggregate => {
    const cells = rows.map((r) => r.scores[name]).filter((c) => c !== undefined);
    const scores = cells.map((c) => c.score).filter((s): s is number => typeof s === "number");
    return {
      name,
      mean: mean(scores),
      passed: cells.filter((c) => cellPassed(c) === true).length,
      scored: scores.length,
      failed: cells.filter((c) => FAILED.has(c.status)).length,
      histogram: histogram(scores, 1),
    };
  });
  const latencies = rows
    .map((r) => r.latency_ms)
    .filter((v): v is number => typeof v === "number")
    .sort((a, b) => a - b);
  const max = latencies.at(-1);
  return {
    rows: rows.length,
    done: rows.filter((r) => r.output_status && !["queued", "running", "pending"].includes(r.output_status)).length,
    errors: rows.filter((r) => r.output_status !== undefined && FAILED.has(r.output_status)).length,
    evaluators,
    latency: {
      mean: mean(latencies),
      p50: quantile(latencies, 0.5),
      p95: quantile(latencies, 0.95),
      max,
      histogram: histogram(latencies, max ?? 0),
    },
    tokens: rows.reduce((sum, r) => sum + (r.tokens ?? 0), 0),
    costUsd: rows.some((r) => (r.tokens ?? 0) > 0 && r.cost_usd === undefined)
      ? undefined
      : rows.reduce((sum, r) => sum + (r.cost_usd ?? 0), 0),
  };
}
