import { ageBatch, rawQuery, type Executor } from "@/server/db";

/**
 * Erasing chat sessions, for a deletion request and for retention by age (server/retention calls
 * these through this area's index.ts; the table is this area's).
 */

/** The ids of the chat sessions an account created. */
export async function chatSessionsCreatedBy(tx: Executor, projectId: string, userId: string): Promise<string[]> {
  const rows = await rawQuery<{ id: string }>(
    tx,
    `select id from chat_sessions where project_id = $1 and created_by::text = $2`,
    [projectId, userId],
  );
  return rows.map((r) => r.id);
}

/** Deletes the chat sessions, in the caller's transaction. Returns the rows deleted. */
export async function eraseChatSessions(tx: Executor, projectId: string, sessionIds: string[]): Promise<number> {
  const [{ n }] = await rawQuery<{ n: number }>(
    tx,
    `with hit as (delete from chat_sessions where project_id = $1 and id = any($2::text[]) returning 1)
     select count(*)::int as n from hit`,
    [projectId, sessionIds],
  );
  return n;
}

/**
 * Retention by age: at most `limit` chat sessions of the project last active (`updated_at`)
 * before `before` (a conversation someone continues is kept), skipping rows a writer holds
 * (FOR UPDATE SKIP LOCKED). Returns the count.
 */
export const deleteChatSessionsBefore = ageBatch(
  `delete from chat_sessions where (project_id, id) in (
        select project_id, id from chat_sessions where project_id = $1 and updated_at < $2
        limit $3 for update skip locked)`,
);
