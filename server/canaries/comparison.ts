import { queryAnalytics, type AnalyticsMetrics } from "@/server/analytics";
import type { Executor } from "@/server/db";
import { liveScoreOfRevision, liveScoresOfRevision, type LiveScore, type NamedLiveScore } from "@/server/evaluations";
import type { Scope } from "@/server/versioning";
import type { CanaryRow } from "./store";

export interface RevisionSide {
  revision_id: string;
  role: "baseline" | "candidate";
  metrics: AnalyticsMetrics;
  /** The guard's live evaluation on this revision's traffic, when the canary has one. */
  live_score?: LiveScore;
  /** Every live evaluation that scored this revision's runs since the start. */
  live_scores: NamedLiveScore[];
}

export interface CanaryComparison {
  window: { oldest: string; newest: string };
  revisions: RevisionSide[];
}

/**
 * The environment's runs since the canary started, split by revision (cost, latency, errors,
 * runs, from the analytics engine), baseline beside candidate, with the scores of the live
 * evaluations on each side's runs (and the guard's, when it names one).
 */
export async function compareCanary(
  db: Executor,
  scope: Scope,
  row: CanaryRow,
  environmentSlug: string,
  now: Date,
): Promise<CanaryComparison> {
  const newest = row.endedAt ?? now;
  const result = await queryAnalytics(
    db,
    scope.projectId,
    {
      windowing: { oldest: row.startedAt.toISOString(), newest: newest.toISOString(), bucket: "day" },
      group_by: "revision",
      filtering: {
        operator: "and",
        conditions: [
          { field: "environment", value: environmentSlug },
          { field: "revision", operator: "in", value: [row.baselineRevisionId, row.candidateRevisionId] },
        ],
      },
    },
    { now },
  );
  const sides: [string, RevisionSide["role"]][] = [
    [row.baselineRevisionId, "baseline"],
    [row.candidateRevisionId, "candidate"],
  ];
  const revisions: RevisionSide[] = [];
  for (const [id, role] of sides) {
    // Only the window totals per group are wanted: day buckets keep the query small.
    const group = result.groups?.find((g) => g.key === id);
    const guard = row.guards.min_score;
    revisions.push({
      revision_id: id,
      role,
      metrics: group?.metrics ?? NO_RUNS,
      live_scores: await liveScoresOfRevision(db, scope.projectId, id, row.startedAt),
      ...(guard && {
        live_score: await liveScoreOfRevision(db, scope.projectId, guard.evaluation_run_id, id, row.startedAt),
      }),
    });
  }
  return { window: { oldest: row.startedAt.toISOString(), newest: newest.toISOString() }, revisions };
}

const NO_RUNS: AnalyticsMetrics = {
  count: 0,
  errors: 0,
  error_rate: 0,
  tokens: {},
  costs: {},
  latency_ms: { mean: 0, p50: 0, p90: 0, p99: 0 },
  ttft_ms: { count: 0, mean: 0, p50: 0, p90: 0, p99: 0 },
  scores: { count: 0, score_count: 0, verdict_count: 0 },
};
