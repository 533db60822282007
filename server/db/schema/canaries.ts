import { sql } from "drizzle-orm";
import { doublePrecision, index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { ts } from "./columns";
import { projects, users } from "./auth-tenancy";

/** What rolls a canary back on its own (server/domains/environments/canary/README.md). */
export interface CanaryGuards {
  /** A live evaluation's mean score on the canary's traffic must stay at or above `minimum`. */
  min_score?: { evaluation_run_id: string; minimum: number; min_results: number };
  /** Monitors of the project; one that fires (enters alerting) during the canary rolls it back. */
  monitors?: string[];
}

/**
 * A canary release of one environment key: the candidate revision takes `weight` percent of the
 * key's traffic beside the baseline (the environment's `splits[key]`). `steps` are the weights a
 * ramp moves through, one every `step_interval_ms`; `next_step_at` is when the next is due.
 * `status`: running, promoted, rolled_back, or replaced (a deploy of the key ended the split).
 * At most one running canary per environment variant and key.
 */
export const canaries = pgTable(
  "canaries",
  {
    id: uuid("id").primaryKey(),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    environmentId: uuid("environment_id").notNull(),
    environmentVariantId: uuid("environment_variant_id").notNull(),
    key: text("key").notNull(),
    /** `workflow_revision`, `application_revision`, `evaluator_revision`: the entries' family. */
    revisionKey: text("revision_key").notNull(),
    baselineRevisionId: uuid("baseline_revision_id").notNull(),
    candidateRevisionId: uuid("candidate_revision_id").notNull(),
    status: text("status").notNull().default("running"),
    weight: doublePrecision("weight").notNull(),
    steps: jsonb("steps").$type<number[]>().notNull().default([]),
    stepIndex: integer("step_index").notNull().default(0),
    stepIntervalMs: integer("step_interval_ms"),
    nextStepAt: ts("next_step_at"),
    guards: jsonb("guards").$type<CanaryGuards>().notNull().default({}),
    /** Why it ended (a guard that fired, who promoted it). */
    reason: text("reason"),
    startedAt: ts("started_at").notNull(),
    endedAt: ts("ended_at"),
    createdById: uuid("created_by_id").references(() => users.id, { onDelete: "set null" }),
  },
  (t) => [
    uniqueIndex("canaries_running_key_idx")
      .on(t.environmentVariantId, t.key)
      .where(sql`status = 'running'`),
    index("canaries_due_idx")
      .on(t.nextStepAt)
      .where(sql`status = 'running'`),
    index("canaries_project_idx").on(t.projectId, t.environmentId, t.id),
  ],
);
