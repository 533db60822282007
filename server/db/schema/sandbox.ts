import { integer, jsonb, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import { ts } from "./columns";
import { projects } from "./auth-tenancy";

/**
 * One `local` sandbox workspace per (project, session): the files under /workspace of the
 * session's virtual file system, so the next turn finds them whichever app process serves it.
 * `entries` is the snapshot (server/sandbox/workspace-snapshot.ts); `size_bytes` its file bytes.
 */
export const sandboxWorkspaces = pgTable(
  "sandbox_workspaces",
  {
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    sessionId: text("session_id").notNull(),
    entries: jsonb("entries").notNull(),
    sizeBytes: integer("size_bytes").notNull(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.sessionId] })],
);
