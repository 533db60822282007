import { rawQuery, type Executor } from "@/server/db";

/**
 * For a deletion request (server/retention), in the caller's transaction: the firings that
 * started a run of the sessions, or one of the runs, keep their row (its event key keeps them
 * from firing twice) but lose their payload, the inputs their run was given, and the run,
 * session and trace they named. Returns the rows cleared.
 */
export async function clearFiringsOf(
  tx: Executor,
  projectId: string,
  of: { sessionIds: string[]; runIds: string[] },
): Promise<number> {
  const [{ n }] = await rawQuery<{ n: number }>(
    tx,
    `with hit as (update automation_deliveries
       set payload = null, inputs = null, session_id = null, run_id = null, trace_id = null
       where project_id = $1 and (session_id = any($2::text[]) or run_id = any($3::text[])) returning 1)
     select count(*)::int as n from hit`,
    [projectId, of.sessionIds, of.runIds],
  );
  return n;
}
