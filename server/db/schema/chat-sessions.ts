import { index, integer, jsonb, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import { ts } from "./columns";
import { projects, users } from "./auth-tenancy";
import { artifacts } from "./versioning";

/**
 * The playground's chat sessions, per agent: the conversation as the browser shows it (AI SDK UI
 * messages), so a person finds it again on another device. The id is the agent session id sent
 * to invoke (it also keys the session's sandbox workspace and its approvals).
 */
export const chatSessions = pgTable(
  "chat_sessions",
  {
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    id: text("id").notNull(),
    agentId: uuid("agent_id")
      .notNull()
      .references(() => artifacts.id, { onDelete: "cascade" }),
    variantId: uuid("variant_id"),
    title: text("title").notNull(),
    messages: jsonb("messages").notNull(),
    messageCount: integer("message_count").notNull(),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.id] }),
    index("chat_sessions_agent_idx").on(t.projectId, t.agentId, t.updatedAt),
  ],
);
