import { sql } from "drizzle-orm";
import { index, jsonb, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { ts } from "./columns";

/**
 * The transactional outbox: written in the same transaction as the change that causes the
 * event; webhook fan-out reads from here.
 *
 * `project_id` has no foreign key: its check of each row cost a third to a half of an event's
 * insert (every retrieve writes one). Its two duties are kept by hand (server/events/README.md):
 * every insert locks its project `FOR KEY SHARE`, once per statement and project, and the trigger
 * `projects_delete_events` (migration 0018) deletes a project's events with the project.
 */
export const events = pgTable(
  "events",
  {
    id: uuid("id").primaryKey(),
    projectId: uuid("project_id").notNull(),
    eventType: text("event_type").notNull(),
    timestamp: ts("timestamp").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
    attributes: jsonb("attributes").$type<Record<string, unknown>>().notNull(),
    /** Set by webhook fan-out (server/webhooks) once the event's deliveries exist. */
    fannedOutAt: ts("fanned_out_at"),
  },
  (t) => [
    index("events_project_idx").on(t.projectId, t.id),
    index("events_type_idx").on(t.projectId, t.eventType, t.id),
    index("events_fan_out_idx")
      .on(t.id)
      .where(sql`fanned_out_at is null`),
  ],
);
