import { ageBatch, rawQuery, type Executor } from "@/server/db";
import { forgetSessionBounds, forgetTraceBounds, sessionRange } from "./store/span-bounds";

/**
 * Erasing traces, for a deletion request and for retention by age (server/retention calls these
 * through this area's index.ts; the tables are this area's). Trace ids are stored (dashed) ids.
 */

/** The traces with a span carrying one of the session ids (read within the sessions' time range). */
export async function tracesOfSessions(tx: Executor, projectId: string, sessionIds: string[]): Promise<string[]> {
  const range = await sessionRange(tx, projectId, sessionIds);
  if (!range) return [];
  const rows = await rawQuery<{ trace_id: string }>(
    tx,
    `select distinct trace_id::text as trace_id from spans where project_id = $1 and session_id = any($2::text[])
       and start_time >= $3::timestamptz and start_time <= $4::timestamptz`,
    [projectId, sessionIds, range.from, range.to],
  );
  return rows.map((r) => r.trace_id);
}

/**
 * The traces with a span naming the user id (`user_id`, from `user_id` or `ag.user.id`: the id an
 * application sends for its own end users), and the sessions those spans belong to.
 */
export async function tracesOfUser(
  tx: Executor,
  projectId: string,
  userId: string,
): Promise<{ traceIds: string[]; sessionIds: string[] }> {
  const rows = await rawQuery<{ trace_id: string; session_id: string | null }>(
    tx,
    `select distinct trace_id::text as trace_id, session_id from spans where project_id = $1 and user_id = $2`,
    [projectId, userId],
  );
  return {
    traceIds: [...new Set(rows.map((r) => r.trace_id))],
    sessionIds: [...new Set(rows.flatMap((r) => (r.session_id === null ? [] : [r.session_id])))],
  };
}

/**
 * Deletes the traces' spans, and the uploads still queued for the ingest worker that hold only
 * these traces, in the caller's transaction. Returns the rows deleted of each.
 */
export async function eraseTraces(
  tx: Executor,
  projectId: string,
  traceIds: string[],
): Promise<{ spans: number; queuedUploads: number }> {
  const [{ n: spans, sessions }] = await rawQuery<{ n: number; sessions: string[] }>(
    tx,
    `with hit as (delete from spans where project_id = $1 and trace_id = any($2::uuid[]) returning session_id)
     select count(*)::int as n,
       coalesce(array_agg(distinct session_id) filter (where session_id is not null), '{}') as sessions from hit`,
    [projectId, traceIds],
  );
  await forgetTraceBounds(tx, projectId, traceIds);
  await forgetSessionBounds(tx, projectId, sessions);
  const [{ n: queuedUploads }] = await rawQuery<{ n: number }>(
    tx,
    `with hit as (delete from span_ingest where project_id = $1 and cardinality(trace_ids) > 0
       and trace_ids <@ $2::uuid[] returning 1)
     select count(*)::int as n from hit`,
    [projectId, traceIds],
  );
  return { spans, queuedUploads };
}

/**
 * Retention by age: deletes at most `limit` spans of the project that started before `before`,
 * skipping rows a writer holds (FOR UPDATE SKIP LOCKED), as one short statement. Returns the count.
 */
export const deleteSpansBefore = ageBatch(
  `delete from spans where (project_id, trace_id, span_id, start_time) in (
        select project_id, trace_id, span_id, start_time from spans
        where project_id = $1 and start_time < $2 limit $3 for update skip locked)`,
);
