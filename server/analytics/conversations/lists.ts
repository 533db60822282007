import type { Executor } from "@/server/db";
import { conversationSummaries } from "./conversation-summaries";
import type { ConversationsQuery } from "./request";

/** The sessions list's wire records (`sessionsListWire`). */
export async function listSessions(db: Executor, projectId: string, q: ConversationsQuery, now: Date) {
  const rows = await conversationSummaries(db, projectId, "session", q, now);
  const sessions = rows.map(({ key, users, sessions: _, ...rest }) => ({ session_id: key, user_ids: users, ...rest }));
  return { count: sessions.length, sessions };
}

/** The users list's wire records (`usersListWire`). */
export async function listUsers(db: Executor, projectId: string, q: ConversationsQuery, now: Date) {
  const rows = await conversationSummaries(db, projectId, "user", q, now);
  const users = rows.map(({ key, users: _, ...rest }) => ({ user_id: key, ...rest }));
  return { count: users.length, users };
}
