import { sql } from "drizzle-orm";
import { index, jsonb, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { ts } from "./columns";
import { projects } from "./tenancy";

/**
 * The transactional outbox: written in the same transaction as the change that causes the
 * event; webhook fan-out reads from here.
 */
export const events = pgTable(
  "events",
  {
    id: uuid("id").primaryKey(),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
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
