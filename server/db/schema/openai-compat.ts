import { jsonb, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { ts } from "./columns";
import { projects } from "./auth-tenancy";

/**
 * Responses of the OpenAI-compatible door (`POST /v1/responses`), kept so that a later call's
 * `previous_response_id` continues the conversation in the same agent session. `messages` is the
 * conversation through this response as native messages (the call's `instructions` excluded).
 */
export const openaiResponses = pgTable("openai_responses", {
  id: uuid("id").primaryKey(),
  projectId: uuid("project_id")
    .notNull()
    .references(() => projects.id, { onDelete: "cascade" }),
  sessionId: text("session_id").notNull(),
  model: text("model").notNull(),
  messages: jsonb("messages").notNull(),
  createdAt: ts("created_at").notNull().defaultNow(),
});
