import { recordAudit } from "@/server/audit";
import type { Database } from "@/server/db";
import { rawQuery } from "@/server/db";
import { drainEvents } from "@/server/events";
import { eraseData, type ErasureCounts } from "./erase-data";

export interface DataDeletion {
  target: { type: "chat_session" | "user"; id: string };
  deleted: ErasureCounts;
}

/**
 * Deletes one session everywhere it was stored (README.md, "What a deletion removes") and audits
 * it: the target and the counts, never the content. Deleting a session that left nothing is not
 * an error (a retried request answers the same way), its entry says zero.
 */
export async function deleteChatSessionData(db: Database, projectId: string, sessionId: string): Promise<DataDeletion> {
  // Read events this process still holds (a trace read a moment ago) are written first, so they go too.
  await drainEvents(db);
  return db.transaction(async (tx) => {
    const deleted = await eraseData(tx, projectId, { sessionIds: [sessionId], runIds: [], traceIds: [] });
    return audited(tx, projectId, { type: "chat_session", id: sessionId }, deleted);
  });
}

/**
 * Deletes one user's data (README.md, "A user's data"): the chat sessions the account created,
 * the runs it started, the traces whose root span names the user id, and every session those
 * belong to, with everything linked to them.
 */
export async function deleteUserData(db: Database, projectId: string, userId: string): Promise<DataDeletion> {
  await drainEvents(db);
  return db.transaction(async (tx) => {
    const sessions = await rawQuery<{ id: string }>(
      tx,
      `select id from chat_sessions where project_id = $1 and created_by::text = $2
       union select session_id from agent_runs where project_id = $1 and request->'principal'->>'userId' = $2
       union select session_id from spans where project_id = $1 and user_id = $2 and session_id is not null`,
      [projectId, userId],
    );
    const runs = await rawQuery<{ id: string }>(
      tx,
      `select id from agent_runs where project_id = $1 and request->'principal'->>'userId' = $2`,
      [projectId, userId],
    );
    const traces = await rawQuery<{ id: string }>(
      tx,
      `select distinct trace_id::text as id from spans where project_id = $1 and user_id = $2`,
      [projectId, userId],
    );
    const deleted = await eraseData(tx, projectId, {
      sessionIds: sessions.map((s) => s.id),
      runIds: runs.map((r) => r.id),
      traceIds: traces.map((t) => t.id),
      userId,
    });
    return audited(tx, projectId, { type: "user", id: userId }, deleted);
  });
}

async function audited(
  tx: Parameters<typeof recordAudit>[0],
  projectId: string,
  target: DataDeletion["target"],
  deleted: ErasureCounts,
): Promise<DataDeletion> {
  await recordAudit(tx, {
    projectId,
    action: "data.deleted",
    targetType: target.type,
    targetId: target.id,
    after: { deleted },
  });
  return { target, deleted };
}
