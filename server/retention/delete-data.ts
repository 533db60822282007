import { recordAudit } from "@/server/audit";
import { runsStartedBy } from "@/server/agent-runs";
import { chatSessionsCreatedBy } from "@/server/chat-sessions";
import type { Database } from "@/server/db";
import { drainEvents } from "@/server/events";
import { tracesOfUser } from "@/server/tracing";
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
    const runs = await runsStartedBy(tx, projectId, userId);
    const traces = await tracesOfUser(tx, projectId, userId);
    const sessions = new Set([
      ...(await chatSessionsCreatedBy(tx, projectId, userId)),
      ...runs.sessionIds,
      ...traces.sessionIds,
    ]);
    const deleted = await eraseData(tx, projectId, {
      sessionIds: [...sessions],
      runIds: runs.runIds,
      traceIds: traces.traceIds,
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
