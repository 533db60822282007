import { and, desc, eq, sql } from "drizzle-orm";
import { BadRequestError, NotFoundError } from "@/server/core/errors";
import type { Database } from "@/server/db";
import { chatSessions } from "@/server/db/schema";
import { redactForStorage } from "@/server/redaction";
import { artifactNames } from "@/server/versioning";
import { MAX_SESSION_BYTES, type SaveChatSessionInput } from "./chat-session-input";
import { sessionTitle } from "./session-title";

export interface ChatSessionScope {
  projectId: string;
  userId: string;
}

export type ChatSessionRow = typeof chatSessions.$inferSelect;

/**
 * Keeps a chat's messages after each turn (insert or replace), as the project's redaction rules
 * leave them. The agent must be one of the project's; the first user message names the session
 * (taken from the redacted messages, so the title holds nothing the messages do not).
 */
export async function saveChatSession(db: Database, scope: ChatSessionScope, input: SaveChatSessionInput) {
  const size = Buffer.byteLength(JSON.stringify(input.messages));
  if (size > MAX_SESSION_BYTES) {
    throw new BadRequestError(
      `messages are ${size} bytes; a stored chat session holds at most ${MAX_SESSION_BYTES}`,
      "session_too_large",
      [{ path: "messages", message: `at most ${MAX_SESSION_BYTES} bytes` }],
    );
  }
  const [agent] = await artifactNames(db, scope.projectId, [input.agentId]);
  if (!agent) throw new NotFoundError(`Agent ${input.agentId} not found`, "agent_not_found");
  const messages = await redactForStorage(db, scope.projectId, input.messages);
  const now = new Date();
  const values = {
    agentId: input.agentId,
    variantId: input.variantId ?? null,
    title: sessionTitle(messages),
    messages,
    messageCount: messages.length,
    updatedAt: now,
  };
  const [row] = await db
    .insert(chatSessions)
    .values({ projectId: scope.projectId, id: input.id, createdBy: scope.userId, createdAt: now, ...values })
    .onConflictDoUpdate({ target: [chatSessions.projectId, chatSessions.id], set: values })
    .returning();
  return row;
}

/** The agent's sessions, most recently used first, without their messages. */
export async function listChatSessions(db: Database, projectId: string, agentId: string, limit = 50) {
  const s = chatSessions;
  return db
    .select({
      id: s.id,
      agentId: s.agentId,
      variantId: s.variantId,
      title: s.title,
      messageCount: s.messageCount,
      createdAt: s.createdAt,
      updatedAt: s.updatedAt,
    })
    .from(s)
    .where(and(eq(s.projectId, projectId), eq(s.agentId, agentId)))
    .orderBy(desc(s.updatedAt), sql`${s.id} desc`)
    .limit(limit);
}

/** One session with its messages; null when this project has none with that id (a run made over the API). */
export async function findChatSession(db: Database, projectId: string, id: string): Promise<ChatSessionRow | null> {
  const [row] = await db
    .select()
    .from(chatSessions)
    .where(and(eq(chatSessions.projectId, projectId), eq(chatSessions.id, id)));
  return row ?? null;
}
