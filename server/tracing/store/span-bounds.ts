import { ageBatch, rawQuery, type Executor } from "@/server/db";
import { pgArray } from "../query/sql-params";

/**
 * `trace_bounds` and `session_bounds`: the earliest and latest start of the spans of each trace
 * and session, written with the spans (in the statement that inserts them) and only ever widened,
 * so they cover every stored span. A read by trace or session id asks here first and bounds its
 * read of `spans` by the range, which the planner prunes to the partitions it covers: without it,
 * a trace id is looked up in the index of every partition, and that grows with history.
 *
 * A row may be wider than its spans (a span replaced by one with a later start, spans deleted):
 * that costs a wider read, never a missed span. A missing row means no stored span.
 */

export interface TimeRange {
  /** ISO timestamps to the microsecond, inclusive. */
  from: string;
  to: string;
}

const widen = (table: string, key: string) => `insert into ${table} (project_id, ${key}, first_start, last_start)
    select project_id, ${key}, min(start_time), max(start_time) from written
    where ${key} is not null group by 1, 2 order by 1, 2
    on conflict (project_id, ${key}) do update
      set first_start = least(${table}.first_start, excluded.first_start),
          last_start = greatest(${table}.last_start, excluded.last_start)
    where excluded.first_start < ${table}.first_start or excluded.last_start > ${table}.last_start`;

/**
 * Wraps an `insert into spans ...` (without a returning clause) so the same statement widens the
 * bounds of the traces and sessions it wrote. Rows are upserted in key order: two writers meeting
 * on the same sessions lock them in one order (traces are locked by the worker already).
 */
export function withBounds(insertSpans: string): string {
  return `with written as (${insertSpans} returning project_id, trace_id, session_id, start_time),
    traces as (${widen("trace_bounds", "trace_id")})
    ${widen("session_bounds", "session_id")}`;
}

const TRACE_RANGE = `select to_json(min(first_start)) #>> '{}' as "from", to_json(max(last_start)) #>> '{}' as "to"
  from trace_bounds where project_id = $1::uuid and trace_id = any($2::text::uuid[])`;
const SESSION_RANGE = `select to_json(min(first_start)) #>> '{}' as "from", to_json(max(last_start)) #>> '{}' as "to"
  from session_bounds where project_id = $1::uuid and session_id = any($2::text::text[])`;

async function range(db: Executor, sql: string, projectId: string, ids: string[]): Promise<TimeRange | undefined> {
  if (ids.length === 0) return undefined;
  const [row] = await rawQuery<{ from: string | null; to: string | null }>(db, sql, [projectId, pgArray(ids)]);
  return row?.from && row.to ? { from: row.from, to: row.to } : undefined;
}

/** The range the stored spans of these traces start in; undefined when none is stored. */
export const traceRange = (db: Executor, projectId: string, traceIds: string[]) =>
  range(db, TRACE_RANGE, projectId, traceIds);

/** The range the stored spans naming these sessions start in; undefined when none is stored. */
export const sessionRange = (db: Executor, projectId: string, sessionIds: string[]) =>
  range(db, SESSION_RANGE, projectId, sessionIds);

/** The traces of these (project, trace) keys that have a bounds row: those that may have stored spans. */
export async function tracesWithBounds(
  db: Executor,
  keys: { projectId: string; traceId: string }[],
): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await rawQuery<{ project_id: string; trace_id: string }>(
    db,
    `select b.project_id::text as project_id, b.trace_id::text as trace_id
       from unnest($1::text::uuid[], $2::text::uuid[]) as k(p, t)
       join trace_bounds b on b.project_id = k.p and b.trace_id = k.t`,
    [pgArray(keys.map((k) => k.projectId)), pgArray(keys.map((k) => k.traceId))],
  );
  return new Set(rows.map((r) => `${r.project_id}/${r.trace_id}`));
}

/** Forgets the bounds of traces that no longer have spans (deleted whole), in the caller's transaction. */
export async function forgetTraceBounds(db: Executor, projectId: string, traceIds: string[]): Promise<void> {
  if (traceIds.length === 0) return;
  await rawQuery(
    db,
    `delete from trace_bounds b where b.project_id = $1::uuid and b.trace_id = any($2::text::uuid[])
       and not exists (select 1 from spans s where s.project_id = b.project_id and s.trace_id = b.trace_id
         and s.start_time >= b.first_start and s.start_time <= b.last_start)`,
    [projectId, pgArray(traceIds)],
  );
}

/** Forgets the bounds of sessions that no longer have spans (their traces erased), in the caller's transaction. */
export async function forgetSessionBounds(db: Executor, projectId: string, sessionIds: string[]): Promise<void> {
  if (sessionIds.length === 0) return;
  await rawQuery(
    db,
    `delete from session_bounds b where b.project_id = $1::uuid and b.session_id = any($2::text::text[])
       and not exists (select 1 from spans s where s.project_id = b.project_id and s.session_id = b.session_id
         and s.start_time >= b.first_start and s.start_time <= b.last_start)`,
    [projectId, pgArray(sessionIds)],
  );
}

/**
 * After the spans that started before `before` are gone (a partition dropped, or deleted by
 * retention): the bounds that end before it describe nothing left. `projectId` undefined: every
 * project (the server's retention). Returns the rows deleted.
 */
export async function forgetBoundsBefore(db: Executor, before: string, projectId?: string): Promise<number> {
  let deleted = 0;
  for (const table of ["trace_bounds", "session_bounds"]) {
    const rows = await rawQuery<{ n: number }>(
      db,
      projectId === undefined
        ? `with hit as (delete from ${table} where last_start < $1::timestamptz returning 1) select count(*)::int as n from hit`
        : `with hit as (delete from ${table} where project_id = $2::uuid and last_start < $1::timestamptz returning 1)
           select count(*)::int as n from hit`,
      projectId === undefined ? [before] : [before, projectId],
    );
    deleted += rows[0].n;
  }
  return deleted;
}

/** Retention by age, after deleteSpansBefore has found nothing left: the project's trace bounds that end before `before`. */
export const deleteTraceBoundsBefore = ageBatch(
  `delete from trace_bounds where (project_id, trace_id) in (
     select project_id, trace_id from trace_bounds where project_id = $1 and last_start < $2 limit $3 for update skip locked)`,
);

/** The same for the project's session bounds. */
export const deleteSessionBoundsBefore = ageBatch(
  `delete from session_bounds where (project_id, session_id) in (
     select project_id, session_id from session_bounds where project_id = $1 and last_start < $2 limit $3 for update skip locked)`,
);
