import { sql } from "drizzle-orm";
import { rowsOf, type Executor } from "@/server/db";
import { traceOfRevisionSince } from "@/server/tracing";

/**
 * Live evaluations' scores on one revision's traffic, for other areas (a canary's score guard and
 * its comparison), which may not name the evaluation tables themselves.
 */

export interface LiveScore {
  /** Mean `score` of the evaluator results, null while there is none. */
  mean: number | null;
  results: number;
}

export interface NamedLiveScore extends LiveScore {
  evaluation_run_id: string;
  name?: string;
}

/**
 * A result `e` belongs to a scenario whose source trace is a run of the revision started since
 * `since` (its root span names the revision).
 */
const onRevisionTraffic = (revisionId: string, since: Date) => sql`exists (
    select 1 from evaluation_results i
    where i.scenario_id = e.scenario_id and i.trace_id is not null
      and ${traceOfRevisionSince(sql`i.project_id`, sql`i.trace_id`, revisionId, since)}
  )`;

/** Every live evaluation of the project that scored one revision's traffic since `since`, with its mean score. */
export async function liveScoresOfRevision(
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
 * One live evaluation's mean score on one revision's traffic since `since`: its evaluator results
 * (a numeric `score` output) of scenarios whose source trace is a run of that revision that
 * started since then.
 */
export async function liveScoreOfRevision(
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

/** Whether an evaluation run of the project is live (`flags.is_live`); undefined when there is no such run. */
export async function isLiveEvaluation(
  db: Executor,
  projectId: string,
  evaluationRunId: string,
): Promise<boolean | undefined> {
  const [run] = rowsOf<{ live: boolean | null }>(
    await db.execute(sql`
      select (flags ->> 'is_live')::boolean as live from evaluation_runs
      where project_id = ${projectId} and id = ${evaluationRunId}`),
  );
  return run ? Boolean(run.live) : undefined;
}
