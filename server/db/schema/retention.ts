import { integer, pgTable, uuid } from "drizzle-orm/pg-core";
import { ts } from "./columns";
import { projects } from "./auth-tenancy";

/**
 * A project's retention (server/retention): how many days each stored kind is kept. A null column
 * keeps that kind forever; no row keeps everything forever, as before retention existed (spans
 * still follow the global `TRACING_RETENTION_DAYS` partition drop).
 */
export const retentionSettings = pgTable("retention_settings", {
  projectId: uuid("project_id")
    .primaryKey()
    .references(() => projects.id, { onDelete: "cascade" }),
  tracesDays: integer("traces_days"),
  runsDays: integer("runs_days"),
  chatSessionsDays: integer("chat_sessions_days"),
  evaluationResultsDays: integer("evaluation_results_days"),
  eventsDays: integer("events_days"),
  updatedAt: ts("updated_at").notNull().defaultNow(),
});
