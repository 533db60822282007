import { sql } from "drizzle-orm";
import { BadRequestError, NotFoundError } from "@/server/core/errors";
import { rowsOf, type Executor } from "@/server/db";
import { spanDimensionsSql } from "@/server/tracing";

export interface LiveScore {
  /** Mean `score` of the evaluator results, null while there is none. */
  mean: number | null;
  results: number;
}

const revisionOfRoot = spanDimensionsSql("s").revision;

/** A result `e` belongs to a scenario whose source trace is a run of the revision started since `since`. */
const onRevisionTraffic = (revisionId: string, since: Date) => sql`exists (
    select 1 from evaluation_results i
    join spans s on s.project_id = i.project_id and s.trace_id = i.trace_id::uuid and s.parent_id is null
    where i.scenario_id = e.scenario_id and i.trace_id is not null
      and s.start_time >= ${since.toISOString()} and ${sql.raw(revisionOfRoot)} = ${revisionId}
  )`;

export interface NamedLiveScore extends LiveScore {
  evaluation_run_id: string;
  name?: string;
}

/**
 * Every live evaluation of the project that scored one revision's traffic since `since`, with its
 * mean score: the comparison's scores, whether or not a guard names an evaluation.
 */
export async function liveScores(
  db: Executor,
  projectId: string,
  revisionId: string,
  since: Date,
): Promise<NamedLiveScore[]> {
  const result = await db.execute(sql`
    select r.id as run_id, r.name, avg((e.outputs ->> 'score')::float8) as mean, count(*)::int as results
    from evaluation_runs r
    join evaluation_results e on e.run_id = r.id and e.project_id = r.project_id
    where r.project_id = ${projectId} and r.flags @> '{"is_live": true}'::jsonb and e.status = 'success'
      and jsonb_typeof(e.outputs -> 'score') = 'number'
      and ${onRevisionTraffic(revisionId, since)}
    group by r.id, r.name
    order by r.id`);
  return rowsOf<{ run_id: string; name: string | null; mean: number | string; results: number | string }>(result).map(
    (row) => ({
      evaluation_run_id: row.run_id,
      ...(row.name && { name: row.name }),
      mean: Number(row.mean),
      results: Number(row.results),
    }),
  );
}

/**
 * A live evaluation's mean score on one revision's traffic since `since`: the evaluator results
 * (a numeric `score` output) of scenarios whose source trace is a run of that revision (its root
 * span's `workflow_revision` reference) that started since then. Read straight from the evaluation tables, as the deploy
 * rule does (server/deploy-gates/README.md says why the environments domain cannot import
 * evaluations).
 */
export async function liveScore(
  db: Executor,
  projectId: string,
  evaluationRunId: string,
  revisionId: string,
  since: Date,
): Promise<LiveScore> {
  const result = await db.execute(sql`
    select avg((e.outputs ->> 'score')::float8) as mean, count(*)::int as results
    from evaluation_results e
    where e.project_id = ${projectId} and e.run_id = ${evaluationRunId} and e.status = 'success'
      and jsonb_typeof(e.outputs -> 'score') = 'number'
      and ${onRevisionTraffic(revisionId, since)}`);
  const [row] = rowsOf<{ mean: number | string | null; results: number | string }>(result);
  return {
    mean: row?.mean === null || row?.mean === undefined ? null : Number(row.mean),
    results: Number(row?.results ?? 0),
  };
}

/** The guard's evaluation must be a live evaluation of the project: no other gets results from traffic. */
export async function checkScoreGuard(db: Executor, projectId: string, evaluationRunId: string): Promise<void> {
  const [run] = rowsOf<{ live: boolean | null }>(
    await db.execute(sql`
      select (flags ->> 'is_live')::boolean as live from evaluation_runs
      where project_id = ${projectId} and id = ${evaluationRunId}`),
  );
  if (!run)
    throw new NotFoundError(`evaluation run ${evaluationRunId} not found in this project`, "evaluation_not_found");
  if (!run.live)
    throw new BadRequestError(
      `evaluation run ${evaluationRunId} is not a live evaluation (flags.is_live): it scores no traffic, so it cannot guard a canary`,
      "evaluation_not_live",
    );
}
