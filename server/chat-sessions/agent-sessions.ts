import { and, eq } from "drizzle-orm";
import type { Executor } from "@/server/db";
import { chatSessions } from "@/server/db/schema";

/**
 * The ids of the chat sessions the playground stores under an agent (its draft chats), as a
 * subquery another area's query can filter by (`inArray(column, sessionIdsOfAgent(...))`).
 */
export function sessionIdsOfAgent(db: Executor, projectId: string, agentId: string) {
  return db
    .select({ id: chatSessions.id })
    .from(chatSessions)
    .where(and(eq(chatSessions.projectId, projectId), eq(chatSessions.agentId, agentId)));
}
