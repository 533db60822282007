export { conversationSummaries, type ConversationSummary } from "./conversation-summaries";
export { conversationsQuerySchema, type ConversationsQuery } from "./request";
export { sessionTurns, type SessionTurn } from "./session-turns";
export { listSessions, listUsers } from "./lists";
export { conversationRoutes } from "./routes";
