import type { AppContext } from "@/server/core/app-context";
import { rawQuery, type Executor } from "@/server/db";
import { deleteRollupsBefore, projectsWithRollups, ROLLUP_DETAIL, type RollupGrain } from "@/server/tracing";
import { startWakeLoop, type BackgroundWorker } from "@/server/worker";

const DAY_MS = 86_400_000;

/**
 * How long fine-grained span roll-up rows are kept (day rows are kept for good), by grain and
 * `detail`. A `with` row (revision, API key, user) is about one per run at each fine grain, so
 * those rows are most of the table, and they go after 8 days: a monitor's window is at most 7 days
 * and reads quarter hours at its edges (window-totals.ts), with `with` rows when it watches a user
 * or a key. Rows summed over those three (`none`, `summed`) are a few per bucket, however much
 * traffic: quarter hours are kept 92 days, so the dashboards' longest range (90 days by day) in
 * a zone such as Asia/Kolkata, whose days start on a half hour, is still read from roll-ups;
 * hours are kept for good, as every zone of whole hours reads its days from them. A query that
 * needs a row compaction took scans the spans instead (`grainKept`, over the marks).
 */
export const ROLLUP_KEPT: { grain: Exclude<RollupGrain, "day">; details: number[]; days: number }[] = [
  { grain: "quarter", details: [ROLLUP_DETAIL.with], days: 8 },
  { grain: "hour", details: [ROLLUP_DETAIL.with], days: 8 },
  { grain: "quarter", details: [ROLLUP_DETAIL.none, ROLLUP_DETAIL.summed], days: 92 },
];
/**
 * Rows under a mark are deleted only once it is this old: longer than any query runs, so a query
 * that read the mark before it moved never meets its window's rows half deleted.
 */
export const COMPACTION_GRACE_MS = 10 * 60_000;
/** Rows one statement deletes at most: a short transaction under the project's roll-up lock, which ingest waits on. */
export const COMPACTION_BATCH = 5_000;
/** Buckets age with the clock: a poll, then passes back to back while one finds work. */
const POLL_MS = 15 * 60_000;

const MARKS = `select grain, detail, compacted_before from rollup_compaction where project_id = $1::uuid`;
const MARK_RULE = `select detail, compacted_before, set_at from rollup_compaction
  where project_id = $1::uuid and grain = $2::text and detail = any($3::int2[])`;
const SET_MARK = `insert into rollup_compaction (project_id, grain, detail, compacted_before, set_at)
  select $1::uuid, $2::text, d, $4::timestamptz, $5::timestamptz from unnest($3::int2[]) as d
  on conflict on constraint rollup_compaction_pkey do update set
    compacted_before = excluded.compacted_before, set_at = excluded.set_at`;

/** Where a project's compaction stands: per grain and detail, the time before which rows may be gone. */
export type CompactionMarks = Map<string, number>;
const markKey = (grain: string, detail: number) => `${grain}/${detail}`;

/** A project's compaction marks (none until its first compaction). */
export async function compactionMarks(db: Executor, projectId: string): Promise<CompactionMarks> {
  const rows = await rawQuery<{ grain: string; detail: number; compacted_before: Date | string }>(db, MARKS, [
    projectId,
  ]);
  return new Map(rows.map((r) => [markKey(r.grain, r.detail), new Date(r.compacted_before).getTime()]));
}

/** Whether the rows of `grain` and `details` are all still there from `from` on (no mark past it). */
export function grainKept(grain: RollupGrain, details: readonly number[], from: Date, marks: CompactionMarks): boolean {
  return details.every((d) => (marks.get(markKey(grain, d)) ?? -Infinity) <= from.getTime());
}

export interface CompactionPassOptions {
  /** Rows per statement (tests make it small to see the batches). */
  batch?: number;
}

/**
 * One pass over every project with roll-ups and every rule of ROLLUP_KEPT. A rule's mark
 * (rollup_compaction) moves first, to the UTC day its horizon falls in, and queries trust it at
 * once; the rows under it are deleted, in bounded batches, once the mark is COMPACTION_GRACE_MS
 * old; the mark moves again (a day later) when none is left under it. Nothing is summed: ingest
 * writes a span's quarter, hour and day rows together, so the coarser rows already hold what the
 * deleted ones held, and every answer from the roll-ups is unchanged. Idempotent, no state
 * between statements: a pass cut short by a crash is finished by the next, in any process.
 * Returns the rows deleted and the marks moved.
 */
export async function compactRollupsPass(
  app: Pick<AppContext, "db" | "now">,
  options: CompactionPassOptions = {},
): Promise<number> {
  const batch = options.batch ?? COMPACTION_BATCH;
  const now = app.now().getTime();
  let done = 0;
  for (const projectId of await projectsWithRollups(app.db)) {
    for (const { grain, details, days } of ROLLUP_KEPT) {
      const target = Math.floor((now - days * DAY_MS) / DAY_MS) * DAY_MS;
      const marks = await rawQuery<{ detail: number; compacted_before: Date | string; set_at: Date | string }>(
        app.db,
        MARK_RULE,
        [projectId, grain, `{${details.join(",")}}`],
      );
      const mark =
        marks.length === details.length ? Math.min(...marks.map((m) => new Date(m.compacted_before).getTime())) : null;
      const settled = marks.every((m) => new Date(m.set_at).getTime() <= now - COMPACTION_GRACE_MS);
      if (mark !== null && settled) {
        const deleted = await deleteRollupsBefore(app.db, projectId, grain, details, new Date(mark), batch);
        done += deleted;
        if (deleted > 0) continue;
      }
      if (mark === null || (settled && mark < target)) {
        await rawQuery(app.db, SET_MARK, [
          projectId,
          grain,
          `{${details.join(",")}}`,
          new Date(target).toISOString(),
          new Date(now).toISOString(),
        ]);
        done += 1;
      }
    }
  }
  return done;
}

/** Passes until one finds nothing or `limit` rows and marks are done (the cron route's bounded drain). */
export async function drainRollupCompaction(
  app: Pick<AppContext, "db" | "now">,
  limit: number,
  options: CompactionPassOptions = {},
): Promise<number> {
  let total = 0;
  while (total < limit) {
    const done = await compactRollupsPass(app, options);
    if (done === 0) break;
    total += done;
  }
  return total;
}

export const rollupCompactionWorker: BackgroundWorker = {
  name: "rollup-compaction",
  start: (app) => startWakeLoop("rollup-compaction", () => compactRollupsPass(app), POLL_MS),
  drain: (app, limit) => drainRollupCompaction(app, limit),
};
