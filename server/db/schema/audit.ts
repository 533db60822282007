import { index, jsonb, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { ts } from "./columns";

/**
 * Who changed what, append-only: triggers (migration `audit_log`) refuse UPDATE, DELETE and
 * TRUNCATE, so no code path, and no one with the application's login, can rewrite it.
 * `project_id` has no foreign key: a project's deletion must not be blocked by, or cascade into,
 * its history. Null for a sign-in whose e-mail matches no user.
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: uuid("id").primaryKey(),
    projectId: uuid("project_id"),
    occurredAt: ts("occurred_at").notNull(),
    /** `<target>.<verb>`: `api_key.created`, `member.role_changed`, `sign_in.failed`, ... */
    action: text("action").notNull(),
    /** user | api_key | system | anonymous */
    actorType: text("actor_type").notNull(),
    actorUserId: uuid("actor_user_id"),
    actorApiKeyId: uuid("actor_api_key_id"),
    /** What the actor typed when there is no user (the e-mail of a failed sign-in). */
    actorLabel: text("actor_label"),
    clientAddress: text("client_address"),
    targetType: text("target_type").notNull(),
    targetId: text("target_id"),
    /** The target before and after the change, secret fields removed (server/audit/without-secrets.ts). */
    before: jsonb("before").$type<unknown>(),
    after: jsonb("after").$type<unknown>(),
  },
  (t) => [
    index("audit_log_project_idx").on(t.projectId, t.id),
    index("audit_log_action_idx").on(t.projectId, t.action, t.id),
  ],
);
