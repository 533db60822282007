import { cellPassed } from "./aggregates";
import type { EvaluationRow } from "./types";

export type RowFilter = "all" | "failed" | "passed";
export type RowSort = "testset" | "score-asc" | "score-desc" | "latency-desc" | "cost-desc";

/** The testcase column holding the expected answer, by the names evaluators read. */
export const EXPECTED_COLUMNS = ["correct_answer", "expected", "expected_output", "ground_truth", "reference"];

export function expectedOf(inputs: unknown): { column: string; value: unknown } | undefined {
  if (!inputs || typeof inputs !== "object") return undefined;
  const record = inputs as Record<string, unknown>;
  const column = EXPECTED_COLUMNS.find((c) => c in record);
  return column ? { column, value: record[column] } : undefined;
}

const FAILED = new Set(["failure", "errors"]);

/** A row failed when its output failed, or an evaluator did not pass it (or failed to run)... */
export function rowFailed(row: EvaluationRow, evaluator?: string): boolean {
  if (row.output_status && FAILED.has(row.output_status)) return true;
  const cells = evaluator ? [row.scores[evaluator]] : Object.values(row.scores);
  return cells.some((c) => cellPassed(c) === false);
}

/** ...and only the rows whose cells did not run are re-run (a low score is an answer, not an error). */
export function rowErrored(row: EvaluationRow): boolean {
  return (
    (row.output_status !== undefined && FAILED.has(row.output_status)) ||
    Object.values(row.scores).some((c) => FAILED.has(c.status))
  );
}

export interface RowQuery {
  filter: RowFilter;
  evaluator?: string;
  /** Only rows whose score (of `evaluator`) is at most this. */
  maxScore?: number;
  sort: RowSort;
}

/** The rows a results table shows, filtered then sorted (ties keep the testset's order). */
export function visibleRows(rows: EvaluationRow[], query: RowQuery): EvaluationRow[] {
  const scoreOf = (row: EvaluationRow) =>
    query.evaluator
      ? row.scores[query.evaluator]?.score
      : (() => {
          const values = Object.values(row.scores)
            .map((c) => c.score)
            .filter((s): s is number => typeof s === "number");
          return values.length ? values.reduce((a, b) => a + b, 0) / values.length : undefined;
        })();
  const kept = rows.filter((row) => {
    if (query.filter === "failed" && !rowFailed(row, query.evaluator)) return false;
    if (query.filter === "passed" && rowFailed(row, query.evaluator)) return false;
    if (query.maxScore !== undefined) {
      const score = scoreOf(row);
      if (score === undefined || score > query.maxScore) return false;
    }
    return true;
  });
  const key: Record<RowSort, ((row: EvaluationRow) => number) | undefined> = {
    testset: undefined,
    "score-asc": (r) => scoreOf(r) ?? Infinity,
    "score-desc": (r) => -(scoreOf(r) ?? -Infinity),
    "latency-desc": (r) => -(r.latency_ms ?? -Infinity),
    "cost-desc": (r) => -(r.cost_usd ?? -Infinity),
  };
  const by = key[query.sort];
  return by
    ? kept
        .map((row, i) => ({ row, i }))
        .sort((a, b) => by(a.row) - by(b.row) || a.i - b.i)
        .map((x) => x.row)
    : kept;
}
