import { rawQuery, type Executor } from "@/server/db";

/**
 * Deletes the tool approval requests of the sessions or issued by the runs, in the caller's
 * transaction (a deletion request: server/retention). Returns the rows deleted.
 */
export async function eraseToolApprovals(
  tx: Executor,
  projectId: string,
  of: { sessionIds: string[]; runIds: string[] },
): Promise<number> {
  const [{ n }] = await rawQuery<{ n: number }>(
    tx,
    `with hit as (delete from tool_approvals
       where project_id = $1 and (session_id = any($2::text[]) or run_id = any($3::text[])) returning 1)
     select count(*)::int as n from hit`,
    [projectId, of.sessionIds, of.runIds],
  );
  return n;
}
