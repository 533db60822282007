export { saveChatSessionSchema, sessionIdSchema, type SaveChatSessionInput } from "./chat-session-input";
export { findChatSession, listChatSessions, saveChatSession, type ChatSessionRow } from "./chat-sessions";
export { sessionTitle } from "./session-title";
export { runOfTrace, uiMessagesFromGenAi, type TraceRun } from "@/shared/trace-messages";
export { chatSessionsCreatedBy, deleteChatSessionsBefore, eraseChatSessions } from "./erase-chat-sessions";
export { sessionIdsOfAgent } from "./agent-sessions";
