import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { ts } from "./columns";
import { projects } from "./auth-tenancy";

/** Where a project wants its events sent. The secret is sealed (server/encryption), never stored plain. */
export const webhookSubscriptions = pgTable(
  "webhook_subscriptions",
  {
    id: uuid("id").primaryKey(),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    description: text("description"),
    tags: jsonb("tags").$type<Record<string, unknown>>(),
    /** The caller's own notes, kept and answered as sent, and carried in every delivery's body. */
    meta: jsonb("meta").$type<Record<string, unknown>>(),
    url: text("url").notNull(),
    /** null: every event type; []: none. */
    eventTypes: jsonb("event_types").$type<string[] | null>(),
    headers: jsonb("headers").$type<Record<string, string>>(),
    authMode: text("auth_mode").$type<"signature" | "authorization">().notNull(),
    payloadFields: jsonb("payload_fields").$type<unknown>(),
    sealedSecret: text("sealed_secret").notNull(),
    isActive: boolean("is_active").notNull().default(true),
    /** Why the service stopped it (410 Gone, failing too long); null when a user stopped it or it runs. */
    stoppedReason: text("stopped_reason"),
    /** Start of the current run of failed attempts; cleared by a success. */
    failingSince: ts("failing_since"),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
    createdBy: uuid("created_by"),
  },
  (t) => [index("webhook_subscriptions_project_idx").on(t.projectId, t.id)],
);

/**
 * One event for one subscription. The id is derived from (event id, subscription id), so fan-out
 * run twice for one event cannot create a second delivery. `payload` holds the exact bytes sent.
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: uuid("id").primaryKey(),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    subscriptionId: uuid("subscription_id").references(() => webhookSubscriptions.id, { onDelete: "cascade" }),
    eventId: uuid("event_id").notNull(),
    eventType: text("event_type").notNull(),
    url: text("url").notNull(),
    payload: text("payload").notNull(),
    status: text("status").$type<"pending" | "succeeded" | "failed">().notNull(),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: ts("next_attempt_at"),
    /** A worker owns the delivery until then; after a crash another worker takes it over. */
    leaseUntil: ts("lease_until"),
    leaseToken: uuid("lease_token"),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    index("webhook_deliveries_project_idx").on(t.projectId, t.id),
    index("webhook_deliveries_due_idx")
      .on(t.nextAttemptAt)
      .where(sql`status = 'pending'`),
  ],
);

/** Every HTTP attempt of a delivery, as sent (secrets redacted) and as answered. */
export const webhookAttempts = pgTable(
  "webhook_attempts",
  {
    id: uuid("id").primaryKey(),
    deliveryId: uuid("delivery_id")
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: "cascade" }),
    number: integer("number").notNull(),
    trigger: text("trigger").$type<"schedule" | "redeliver" | "test">().notNull(),
    requestHeaders: jsonb("request_headers").$type<Record<string, string>>().notNull(),
    statusCode: integer("status_code"),
    responseBody: text("response_body"),
    error: text("error"),
    durationMs: integer("duration_ms").notNull(),
    startedAt: ts("started_at").notNull(),
  },
  (t) => [index("webhook_attempts_delivery_idx").on(t.deliveryId, t.number)],
);
