import { sql } from "drizzle-orm";
import { boolean, doublePrecision, index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { ts } from "./columns";
import { projects } from "./auth-tenancy";

export type MonitorState = "ok" | "alerting" | "no_data";

/**
 * One metric of a project's analytics (or a budget's use) for a scope over a rolling window,
 * against a threshold (server/monitors). The worker claims rows whose `next_evaluation_at` has
 * come (FOR UPDATE SKIP LOCKED) and moves it on in the same transaction as what it wrote.
 */
export const monitors = pgTable(
  "monitors",
  {
    id: uuid("id").primaryKey(),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    description: text("description"),
    /** The metric and how it is read: `{name, focus, usage_kind?, budget_id?}` (monitor-input.ts). */
    metric: jsonb("metric").$type<Record<string, unknown>>().notNull(),
    /** `{kind: project|agent|environment|revision|model|api_key, value?}`. */
    scope: jsonb("scope").$type<Record<string, unknown>>().notNull(),
    windowSeconds: integer("window_seconds").notNull(),
    operator: text("operator").$type<"above" | "below">().notNull(),
    threshold: doublePrecision("threshold").notNull(),
    /** An alerting monitor resolves only once the value is back past this (hysteresis). */
    recoveryThreshold: doublePrecision("recovery_threshold").notNull(),
    minSamples: integer("min_samples").notNull(),
    renotifySeconds: integer("renotify_seconds"),
    /** Channel kinds and their public fields; each channel's secret (URL or token) is in `sealed`. */
    channels: jsonb("channels").$type<Record<string, unknown>[]>().notNull(),
    mutedUntil: ts("muted_until"),
    state: text("state").$type<MonitorState>().notNull().default("no_data"),
    stateSince: ts("state_since").notNull(),
    lastValue: doublePrecision("last_value"),
    lastSamples: integer("last_samples"),
    lastEvaluatedAt: ts("last_evaluated_at"),
    lastNotifiedAt: ts("last_notified_at"),
    nextEvaluationAt: ts("next_evaluation_at").notNull(),
    createdBy: uuid("created_by").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [index("monitors_project_idx").on(t.projectId), index("monitors_due_idx").on(t.nextEvaluationAt)],
);

/** Every firing, re-notification and resolution of a monitor, with the values it saw. */
export const monitorAlerts = pgTable(
  "monitor_alerts",
  {
    id: uuid("id").primaryKey(),
    projectId: uuid("project_id").notNull(),
    monitorId: uuid("monitor_id")
      .notNull()
      .references(() => monitors.id, { onDelete: "cascade" }),
    kind: text("kind").$type<"fired" | "renotified" | "resolved">().notNull(),
    state: text("state").$type<MonitorState>().notNull(),
    previousState: text("previous_state").$type<MonitorState>().notNull(),
    value: doublePrecision("value"),
    threshold: doublePrecision("threshold").notNull(),
    samples: integer("samples").notNull(),
    windowStart: ts("window_start").notNull(),
    windowEnd: ts("window_end").notNull(),
    evaluatedAt: ts("evaluated_at").notNull(),
    /** Recorded while the monitor was muted: no event, no channel message. */
    muted: boolean("muted").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [
    // One alert of a kind per evaluation instant: a repeated evaluation cannot record twice.
    uniqueIndex("monitor_alerts_once").on(t.monitorId, t.evaluatedAt, t.kind),
    index("monitor_alerts_monitor_idx").on(t.monitorId, t.evaluatedAt),
  ],
);

/**
 * One message to one of a monitor's channels (Slack, Teams, GitHub) for one alert, sent under a
 * lease: the channel's delivery record (status, attempts, last answer and error, when tried).
 */
export const monitorNotifications = pgTable(
  "monitor_notifications",
  {
    id: uuid("id").primaryKey(),
    projectId: uuid("project_id").notNull(),
    monitorId: uuid("monitor_id")
      .notNull()
      .references(() => monitors.id, { onDelete: "cascade" }),
    alertId: uuid("alert_id")
      .notNull()
      .references(() => monitorAlerts.id, { onDelete: "cascade" }),
    channel: integer("channel").notNull(),
    kind: text("kind").$type<"slack" | "teams" | "github">().notNull(),
    /** Where the channel sent when the alert was recorded (its URL or token is never stored here). */
    host: text("host"),
    /** The request body, built once when the alert is recorded. */
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    status: text("status").$type<"pending" | "sent" | "failed">().notNull(),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: ts("next_attempt_at").notNull(),
    leaseUntil: ts("lease_until"),
    responseStatus: integer("response_status"),
    lastError: text("last_error"),
    lastAttemptAt: ts("last_attempt_at"),
    sentAt: ts("sent_at"),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("monitor_notifications_once").on(t.alertId, t.channel),
    index("monitor_notifications_monitor_idx").on(t.monitorId, t.id),
    index("monitor_notifications_due_idx")
      .on(t.nextAttemptAt)
      .where(sql`status = 'pending'`),
  ],
);
