import { sql } from "drizzle-orm";
import { doublePrecision, index, integer, jsonb, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { ts } from "./columns";
import { projects, users } from "./auth-tenancy";

/**
 * A triage (server/improve/README.md, `triage/`): the evidence as sent, what the worker collected
 * from it (`items`, written once, so a worker that takes over after a crash groups the same
 * failures) and the groups of the batches done so far (`partial`), so it resumes at the next
 * batch. A background worker claims it with a lease (`lease_token`, `lease_until`).
 */
export const improveTriages = pgTable(
  "improve_triages",
  {
    id: uuid("id").primaryKey(),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    createdById: uuid("created_by_id").references(() => users.id, { onDelete: "set null" }),
    /** queued, running, succeeded, failed, cancelled. */
    status: text("status").notNull().default("queued"),
    /** model or heuristic. */
    method: text("method").notNull(),
    methodNote: text("method_note"),
    evidence: jsonb("evidence").$type<Record<string, unknown>>().notNull(),
    model: text("model"),
    maxExamplesPerMode: integer("max_examples_per_mode").notNull(),
    budgetUsd: doublePrecision("budget_usd"),
    /** The failures collected from the evidence; null until collected. */
    items: jsonb("items").$type<Record<string, unknown>[]>(),
    /** The modes of the batches grouped so far (name, description, item indexes). */
    partial: jsonb("partial").$type<Record<string, unknown>[]>().notNull().default([]),
    progress: jsonb("progress").$type<Record<string, unknown>>().notNull().default({}),
    spendUsd: doublePrecision("spend_usd").notNull().default(0),
    /** `budget` when the budget stopped the grouping before every batch was done. */
    stopReason: text("stop_reason"),
    note: text("note"),
    error: text("error"),
    leaseToken: uuid("lease_token"),
    leaseUntil: ts("lease_until"),
    attempts: integer("attempts").notNull().default(0),
    createdAt: ts("created_at").notNull(),
    startedAt: ts("started_at"),
    finishedAt: ts("finished_at"),
  },
  (t) => [
    index("improve_triages_project_idx").on(t.projectId, t.id),
    index("improve_triages_open_idx")
      .on(t.leaseUntil)
      .where(sql`status in ('queued', 'running')`),
  ],
);

/** A named failure mode a triage found: its count, representative examples and signature. */
export const improveFailureModes = pgTable(
  "improve_failure_modes",
  {
    id: uuid("id").primaryKey(),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    triageId: uuid("triage_id")
      .notNull()
      .references(() => improveTriages.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    name: text("name").notNull(),
    description: text("description").notNull(),
    count: integer("count").notNull(),
    examples: jsonb("examples").$type<Record<string, unknown>[]>().notNull(),
    signature: jsonb("signature").$type<Record<string, string>>().notNull().default({}),
    createdAt: ts("created_at").notNull(),
  },
  (t) => [index("improve_failure_modes_triage_idx").on(t.triageId, t.position)],
);
