import { rawQuery, type Executor } from "@/server/db";
import { DEFAULT_BATCH_SIZE } from "../model/run-data";

/** A run a claim may lease cells of, and how many it may lease (its batch_size minus its leased cells). */
export interface RunToServe {
  id: string;
  room: number;
}

/**
 * The runs a claim serves, fairest first: only running, active, open runs with a cell due now
 * (queued and due, or its lease run out) and room under their batch_size. A run that waits for
 * people (a review queue's pending cells) or for time (a live run between ticks) has no due cell,
 * so it never takes a place, however many there are and however old. Then, projects holding
 * the fewest leased cells first (a project whose runs keep every slot busy through hand-offs
 * yields to one holding none), ties to the project served least recently; within a project the
 * same by run. Each probe is a range of `evaluation_results_work_idx` (run, status, due_at).
 * $1 now, $2 at most this many runs, $3 the default batch_size.
 */
const RUNS_TO_SERVE = `
with active as (
  select r.id, r.project_id, r.served_at,
    coalesce((r.data->'concurrency'->>'batch_size')::int, $3::int) as batch,
    (select count(*)::int from evaluation_results c
      where c.run_id = r.id and c.status = 'running' and c.lease_until >= $1::timestamptz) as leased
  from evaluation_runs r
  where r.status = 'running' and r.flags @> '{"is_active": true}' and not r.flags @> '{"is_closed": true}'
), by_project as (
  select project_id, sum(leased) as leased, max(served_at) as served_at from active group by project_id
)
select a.id::text as id, a.batch - a.leased as room
from active a join by_project p on p.project_id = a.project_id
where a.leased < a.batch and (
  exists (select 1 from evaluation_results c
    where c.run_id = a.id and c.status = 'queued' and c.due_at <= $1::timestamptz)
  or exists (select 1 from evaluation_results c
    where c.run_id = a.id and c.status = 'running' and c.lease_until < $1::timestamptz))
order by p.leased, p.served_at nulls first, a.leased, a.served_at nulls first, a.id
limit $2`;

/** At most `limit` runs to serve, in the order a claim serves them (see RUNS_TO_SERVE). */
export async function runsToServe(db: Executor, limit: number, now: Date): Promise<RunToServe[]> {
  const rows = await rawQuery<{ id: string; room: number }>(db, RUNS_TO_SERVE, [
    now.toISOString(),
    limit,
    DEFAULT_BATCH_SIZE,
  ]);
  return rows.map((r) => ({ id: r.id, room: Number(r.room) }));
}
