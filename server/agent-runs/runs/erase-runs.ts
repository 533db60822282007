import { ageBatch, rawQuery, type Executor } from "@/server/db";

/**
 * Erasing runs, for a deletion request and for retention by age (server/retention calls these
 * through this area's index.ts; the tables are this area's).
 */

/** What a set of sessions and runs reaches: all the runs, their sessions, their traces (dashed ids). */
export interface LinkedRuns {
  runIds: string[];
  /** The sessions asked for, and the sessions of every run found. */
  sessionIds: string[];
  traceIds: string[];
}

/**
 * The runs of the sessions and the runs named, the runs nested in them (`parent_run_id`) and the
 * runs of every session reached, until nothing new is found.
 */
export async function runsLinkedTo(
  tx: Executor,
  projectId: string,
  seed: { sessionIds: string[]; runIds: string[] },
): Promise<LinkedRuns> {
  const sessions = new Set(seed.sessionIds);
  const runs = new Set<string>();
  const traces = new Set<string>();
  let frontier = await rawQuery<{ id: string; session_id: string; trace_id: string }>(
    tx,
    `select id, session_id, trace_id::uuid::text as trace_id from agent_runs
     where project_id = $1 and (session_id = any($2::text[]) or id = any($3::text[]))`,
    [projectId, [...sessions], seed.runIds],
  );
  while (frontier.length > 0) {
    for (const run of frontier) {
      runs.add(run.id);
      sessions.add(run.session_id);
      traces.add(run.trace_id);
    }
    frontier = await rawQuery(
      tx,
      `select id, session_id, trace_id::uuid::text as trace_id from agent_runs
       where project_id = $1 and (parent_run_id = any($2::text[]) or session_id = any($3::text[])) and not id = any($2::text[])`,
      [projectId, [...runs], [...sessions]],
    );
  }
  return { runIds: [...runs], sessionIds: [...sessions], traceIds: [...traces] };
}

/** The runs an account started (`request.principal.userId`: invoke, playground, `/v1`), and their sessions. */
export async function runsStartedBy(
  tx: Executor,
  projectId: string,
  userId: string,
): Promise<{ runIds: string[]; sessionIds: string[] }> {
  const rows = await rawQuery<{ id: string; session_id: string }>(
    tx,
    `select id, session_id from agent_runs where project_id = $1 and request->'principal'->>'userId' = $2`,
    [projectId, userId],
  );
  return { runIds: rows.map((r) => r.id), sessionIds: [...new Set(rows.map((r) => r.session_id))] };
}

/** Deletes the runs and their event logs (log first), in the caller's transaction; the counts of each. */
export async function eraseRuns(
  tx: Executor,
  projectId: string,
  runIds: string[],
): Promise<{ eventBatches: number; runs: number }> {
  const [{ n: eventBatches }] = await rawQuery<{ n: number }>(
    tx,
    `with hit as (delete from agent_run_events
       where run_id in (select id from agent_runs where project_id = $1 and id = any($2::text[])) returning 1)
     select count(*)::int as n from hit`,
    [projectId, runIds],
  );
  const [{ n: runs }] = await rawQuery<{ n: number }>(
    tx,
    `with hit as (delete from agent_runs where project_id = $1 and id = any($2::text[]) returning 1)
     select count(*)::int as n from hit`,
    [projectId, runIds],
  );
  return { eventBatches, runs };
}

/**
 * Retention by age, children first: at most `limit` event-log batches of the project's runs
 * created before `before` that are not running (its driver still appends), skipping rows a
 * writer holds (FOR UPDATE SKIP LOCKED). Returns the count.
 */
export const deleteRunLogsBefore = ageBatch(
  `delete from agent_run_events where (run_id, seq) in (
        select e.run_id, e.seq from agent_runs r join agent_run_events e on e.run_id = r.id
        where r.project_id = $1 and r.created_at < $2 and r.status <> 'running'
        limit $3 for update of e skip locked)`,
);

/**
 * Retention by age: at most `limit` runs created before `before` that are not running and whose
 * log is already gone (deleteRunLogsBefore), so no cascade deletes an unbounded log. Returns the count.
 */
export const deleteRunsBefore = ageBatch(
  `delete from agent_runs where id in (
        select r.id from agent_runs r
        where r.project_id = $1 and r.created_at < $2 and r.status <> 'running'
          and not exists (select 1 from agent_run_events e where e.run_id = r.id)
        limit $3 for update skip locked)`,
);
