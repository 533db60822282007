/** What the ordering reads of a compared testcase (the `evaluations.compare` shape, structurally). */
export interface ComparedCase {
  runs: { status?: string; deltas: Record<string, number | undefined> }[];
}

export type CaseTrend = "regressed" | "improved" | "unchanged";

const FAILED = new Set(["failure", "errors"]);

/**
 * How a testcase moved against the baseline (the first run): the most negative score delta of
 * any other run, and a run whose output failed where the baseline's did not counts as a loss of 1.
 */
export function caseChange(testcase: ComparedCase): number {
  const [baseline, ...others] = testcase.runs;
  let worst = 0;
  let best = 0;
  for (const run of others) {
    const deltas = Object.values(run.deltas).filter((d): d is number => typeof d === "number");
    const failedNow = run.status !== undefined && FAILED.has(run.status) && !FAILED.has(baseline?.status ?? "");
    for (const d of failedNow ? [...deltas, -1] : deltas) {
      worst = Math.min(worst, d);
      best = Math.max(best, d);
    }
  }
  return worst < 0 ? worst : best;
}

export function caseTrend(testcase: ComparedCase): CaseTrend {
  const change = caseChange(testcase);
  return change < 0 ? "regressed" : change > 0 ? "improved" : "unchanged";
}

/**
 * Regressed rows first (the largest drop first), then unchanged, then improved; ties keep the
 * testset's order (the sort is stable).
 */
export function regressionOrder<T extends ComparedCase>(testcases: T[]): T[] {
  const rank = { regressed: 0, unchanged: 1, improved: 2 } as const;
  return testcases
    .map((testcase, index) => ({ testcase, index, change: caseChange(testcase), trend: caseTrend(testcase) }))
    .sort(
      (a, b) =>
        rank[a.trend] - rank[b.trend] || (a.trend === "regressed" ? a.change - b.change : 0) || a.index - b.index,
    )
    .map((x) => x.testcase);
}
