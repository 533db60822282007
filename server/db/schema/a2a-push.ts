import { sql } from "drizzle-orm";
import { index, integer, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { ts } from "./columns";
import { agentRuns } from "./agent-runs";
import { projects } from "./auth-tenancy";

/**
 * Where an A2A client wants a task's state pushed (server/a2a). The token (the signing secret)
 * and the credentials are sealed (server/encryption), never stored plain. A run erased takes its
 * task's configs with it.
 */
export const a2aPushConfigs = pgTable(
  "a2a_push_configs",
  {
    id: uuid("id").primaryKey(),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    taskId: text("task_id")
      .notNull()
      .references(() => agentRuns.id, { onDelete: "cascade" }),
    /** The client's id for the config (unique per task); ours when it gave none. */
    configId: text("config_id").notNull(),
    url: text("url").notNull(),
    /** The A2A version the config was set over: the pushed body is that version's task. */
    wireVersion: text("wire_version").notNull(),
    sealedToken: text("sealed_token").notNull(),
    authScheme: text("auth_scheme"),
    sealedCredentials: text("sealed_credentials"),
    /** When the push of the task's final state was queued; null while the task runs. */
    queuedAt: ts("queued_at"),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("a2a_push_configs_task_config_idx").on(t.taskId, t.configId),
    index("a2a_push_configs_waiting_idx")
      .on(t.createdAt)
      .where(sql`queued_at is null`),
  ],
);

/**
 * One push of a task's state to one config, sent by the webhook delivery pump (leases, retry
 * schedule, signature). `payload` holds the exact bytes sent; one push per (config, state).
 */
export const a2aPushDeliveries = pgTable(
  "a2a_push_deliveries",
  {
    id: uuid("id").primaryKey(),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    pushConfigId: uuid("push_config_id")
      .notNull()
      .references(() => a2aPushConfigs.id, { onDelete: "cascade" }),
    state: text("state").notNull(),
    url: text("url").notNull(),
    payload: text("payload").notNull(),
    status: text("status").$type<"pending" | "succeeded" | "failed">().notNull(),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: ts("next_attempt_at"),
    leaseUntil: ts("lease_until"),
    leaseToken: uuid("lease_token"),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("a2a_push_deliveries_config_state_idx").on(t.pushConfigId, t.state),
    index("a2a_push_deliveries_due_idx")
      .on(t.nextAttemptAt)
      .where(sql`status = 'pending'`),
  ],
);
