import { rawQuery, type Database } from "@/server/db";
import type { RollupGrain } from "./store/rollup-columns";
import { lockRollups } from "./store/rollup-upsert";

/**
 * The projects that have roll-up rows: a skip scan of the primary key (project first), one index
 * probe per project, where `select distinct` would read every row.
 */
const PROJECTS = `with recursive p as (
    (select project_id from span_rollups order by project_id limit 1)
    union all
    select (select r.project_id from span_rollups r where r.project_id > p.project_id order by r.project_id limit 1)
    from p where p.project_id is not null)
  select project_id::text from p where project_id is not null`;

/**
 * At most $4 rows of a project ($1), grain ($2) and details ($5) whose bucket starts before $3:
 * the primary key (project, grain, detail, bucket) read as one range per detail, oldest first.
 */
const DELETE_BATCH = `with gone as (
    delete from span_rollups where ctid = any(array(
      select ctid from span_rollups
      where project_id = $1::uuid and grain = $2::text and detail = any($5::int2[]) and bucket < $3::timestamptz
      limit $4::int))
    returning 1)
  select count(*)::int as n from gone`;

/** The ids of the projects that have roll-up rows. */
export async function projectsWithRollups(db: Database): Promise<string[]> {
  return (await rawQuery<{ project_id: string }>(db, PROJECTS)).map((r) => r.project_id);
}

/**
 * Deletes at most `limit` of a project's roll-up rows of a fine grain and some details
 * (ROLLUP_DETAIL) whose buckets start before `before`, in a transaction of its own under the project's roll-up lock (a writer alone on the
 * rows, as every writer of them). Nothing is summed: the worker writes every grain of a span at
 * once, so the coarser rows already hold what the deleted ones counted (server/analytics decides
 * which grain is kept how long). Returns the rows deleted.
 */
export async function deleteRollupsBefore(
  db: Database,
  projectId: string,
  grain: Exclude<RollupGrain, "day">,
  details: readonly number[],
  before: Date,
  limit: number,
): Promise<number> {
  return db.transaction(async (tx) => {
    await lockRollups(tx, [projectId]);
    const [row] = await rawQuery<{ n: number }>(tx, DELETE_BATCH, [
      projectId,
      grain,
      before.toISOString(),
      limit,
      `{${details.join(",")}}`,
    ]);
    return row.n;
  });
}
