import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { ts } from "./columns";
import { projects } from "./auth-tenancy";

/**
 * An agent started without anyone in the chat (server/automations): by a `schedule` (cron in an
 * IANA zone), an `event` of the service's own outbox, or an `inbound` request signed with the
 * trigger's secret. `target` holds the invoke references exactly as sent (a revision pins one,
 * an environment is resolved at every firing); `input` the messages or the inbound template.
 */
export const automations = pgTable(
  "automations",
  {
    id: uuid("id").primaryKey(),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    kind: text("kind").$type<"schedule" | "event" | "inbound">().notNull(),
    name: text("name").notNull(),
    description: text("description"),
    /** The caller's own labels and notes, kept and answered as sent (the reference's trigger `tags`, `meta`). */
    tags: jsonb("tags").$type<Record<string, unknown>>(),
    meta: jsonb("meta").$type<Record<string, unknown>>(),
    target: jsonb("target").$type<Record<string, unknown>>().notNull(),
    input: jsonb("input").$type<Record<string, unknown>>().notNull(),
    isActive: boolean("is_active").notNull().default(true),
    cron: text("cron"),
    timezone: text("timezone"),
    overlapPolicy: text("overlap_policy").$type<"skip" | "queue_one" | "cancel_previous">(),
    /** The schedule's next fire time; the scheduler claims rows whose time has come. */
    nextFireAt: ts("next_fire_at"),
    lastFiredAt: ts("last_fired_at"),
    /** Fire times missed (downtime) at most this old still fire, once; older ones are recorded as skipped. */
    catchUpSeconds: integer("catch_up_seconds"),
    eventTypes: jsonb("event_types").$type<string[]>(),
    /** Conditions on the payload (event attributes, inbound body), all of which must hold. */
    filter: jsonb("filter").$type<unknown[]>(),
    /**
     * An event subscription follows events created after `events_since` (set when it is made or
     * resumed); `event_cursor_at` is the newest event it has scanned. Both are on the events'
     * own clock (the writer's system time), not the app's.
     */
    eventsSince: ts("events_since"),
    eventCursorAt: ts("event_cursor_at"),
    signatureScheme: text("signature_scheme").$type<"standard_webhooks" | "github" | "stripe">(),
    sealedSecret: text("sealed_secret"),
    createdBy: uuid("created_by").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
    deletedAt: ts("deleted_at"),
    deletedBy: uuid("deleted_by"),
  },
  (t) => [
    index("automations_project_idx").on(t.projectId, t.kind, t.id),
    index("automations_due_idx")
      .on(t.nextFireAt)
      .where(sql`kind = 'schedule' and is_active and deleted_at is null`),
  ],
);

/**
 * One firing of an automation. `event_key` names what fired it (the scheduled time, the event id,
 * the inbound request's id) and is unique per automation, so two processes, a retry or a replay
 * cannot fire it twice. `status`: `pending` (to start), `queued` (waiting for the previous run,
 * overlap `queue_one`), `started` (`run_id` set), `captured` (a test subscription's: recorded,
 * nothing started), `skipped` or `failed` (`error` says why).
 */
export const automationDeliveries = pgTable(
  "automation_deliveries",
  {
    id: uuid("id").primaryKey(),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    automationId: uuid("automation_id")
      .notNull()
      .references(() => automations.id, { onDelete: "cascade" }),
    eventKey: text("event_key").notNull(),
    /** The fire time a schedule had planned; null for events and inbound requests. */
    scheduledAt: ts("scheduled_at"),
    /** When the run was started (or the firing was given up). */
    firedAt: ts("fired_at"),
    status: text("status").$type<"pending" | "queued" | "started" | "captured" | "skipped" | "failed">().notNull(),
    /** The payload the firing maps into the agent's input (event attributes, inbound body). */
    payload: jsonb("payload"),
    /**
     * What the firing ran, as its trigger stood then (a later edit leaves it): the references as
     * stored (an environment is resolved by the run) and the event type. Recorded when the firing
     * is written and again when it is dispatched; null only on firings recorded before 0051.
     */
    triggerReferences: jsonb("trigger_references").$type<Record<string, unknown>>(),
    triggerEventType: text("trigger_event_type"),
    /** What the started run was given (a selector's result, messages, an application's inputs), redacted as the payload is. */
    inputs: jsonb("inputs").$type<Record<string, unknown>>(),
    /** Minted when a dispatcher claims the firing, so a retry after a crash finds the run it started. */
    runId: text("run_id"),
    sessionId: text("session_id"),
    traceId: text("trace_id"),
    error: text("error"),
    /** A dispatcher owns the firing until then; after a crash another one takes it over. */
    leaseUntil: ts("lease_until"),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("automation_deliveries_key_idx").on(t.automationId, t.eventKey),
    index("automation_deliveries_list_idx").on(t.projectId, t.automationId, t.createdAt),
    index("automation_deliveries_open_idx")
      .on(t.createdAt)
      .where(sql`status in ('pending', 'queued')`),
  ],
);
