import { integer, jsonb, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import { ts } from "./columns";
import { projects } from "./tenancy";

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

/**
 * Approval requests a paused turn issued. An answer counts only when its id is here, still
 * `pending`, and names the same tool call, tool and canonical arguments; consuming it flips it to
 * `used`, so a forged, altered or replayed decision never runs the tool.
 */
export const toolApprovals = pgTable("tool_approvals", {
  id: text("id").primaryKey(),
  projectId: uuid("project_id")
    .notNull()
    .references(() => projects.id, { onDelete: "cascade" }),
  sessionId: text("session_id").notNull(),
  toolCallId: text("tool_call_id").notNull(),
  toolName: text("tool_name").notNull(),
  argsHash: text("args_hash").notNull(),
  status: text("status").notNull(),
  createdAt: ts("created_at").notNull().defaultNow(),
  /** The run that paused for this request: the run that answers it continues that one. */
  runId: text("run_id"),
});
