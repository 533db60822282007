import { rawQuery, type Executor } from "@/server/db";

/**
 * Deletes the stored `/v1/responses` conversations of the sessions, in the caller's transaction
 * (a deletion request: server/retention). Returns the rows deleted.
 */
export async function eraseSessionResponses(tx: Executor, projectId: string, sessionIds: string[]): Promise<number> {
  const [{ n }] = await rawQuery<{ n: number }>(
    tx,
    `with hit as (delete from openai_responses where project_id = $1 and session_id = any($2::text[]) returning 1)
     select count(*)::int as n from hit`,
    [projectId, sessionIds],
  );
  return n;
}
