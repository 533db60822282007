import { sql } from "drizzle-orm";
import { doublePrecision, index, integer, jsonb, numeric, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { ts } from "./columns";
import { projects, users } from "./auth-tenancy";

/**
 * An optimization of a base revision (server/improve/optimize/README.md): the request as accepted,
 * the seeded train/holdout split, its progress and its result. A background worker claims it with
 * a lease (`lease_token`, `lease_until`); `next_at` is when a worker should look again (the
 * evaluation runs it waits for). Everything it made lives in `improve_candidates`, so a worker
 * that takes it over after a crash continues from the rows.
 */
export const improveOptimizations = pgTable(
  "improve_optimizations",
  {
    id: uuid("id").primaryKey(),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    createdById: uuid("created_by_id").references(() => users.id, { onDelete: "set null" }),
    /** queued, running, succeeded, failed, cancelled, stopped. */
    status: text("status").notNull().default("queued"),
    stopReason: text("stop_reason"),
    /** workflow or application. */
    baseKind: text("base_kind").notNull(),
    baseArtifactId: uuid("base_artifact_id").notNull(),
    baseRevisionId: uuid("base_revision_id").notNull(),
    testsetRevisionId: uuid("testset_revision_id").notNull(),
    evaluatorRevisionIds: jsonb("evaluator_revision_ids").$type<string[]>().notNull(),
    strategies: jsonb("strategies").$type<string[]>().notNull(),
    model: text("model"),
    sweepModels: jsonb("sweep_models").$type<string[]>().notNull().default([]),
    rounds: integer("rounds").notNull(),
    candidatesPerRound: integer("candidates_per_round").notNull(),
    holdoutFraction: doublePrecision("holdout_fraction").notNull(),
    seed: integer("seed").notNull(),
    spendCapUsd: numeric("spend_cap_usd"),
    failureModeId: uuid("failure_mode_id"),
    /** Testcase ids of each side of the split, in testset order. */
    split: jsonb("split").$type<{ train: string[]; holdout: string[] }>().notNull(),
    progress: jsonb("progress").$type<Record<string, unknown>>().notNull().default({}),
    result: jsonb("result").$type<Record<string, unknown>>(),
    spendUsd: numeric("spend_usd").notNull().default("0"),
    error: text("error"),
    leaseToken: uuid("lease_token"),
    leaseUntil: ts("lease_until"),
    nextAt: ts("next_at"),
    createdAt: ts("created_at").notNull(),
    startedAt: ts("started_at"),
    finishedAt: ts("finished_at"),
  },
  (t) => [
    index("improve_optimizations_project_idx").on(t.projectId, t.id),
    index("improve_optimizations_due_idx")
      .on(t.nextAt)
      .where(sql`status in ('queued', 'running')`),
  ],
);

/**
 * One candidate of an optimization: round 0 is the base revision itself; each other is a commit on
 * its own variant (`improve/<short id>`). The row is written before the commit and the evaluation
 * run it makes, and each is recorded on it as soon as it exists: a worker resuming the
 * optimization reuses them (unique per optimization, round and index).
 */
export const improveCandidates = pgTable(
  "improve_candidates",
  {
    id: uuid("id").primaryKey(),
    optimizationId: uuid("optimization_id")
      .notNull()
      .references(() => improveOptimizations.id, { onDelete: "cascade" }),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    round: integer("round").notNull(),
    idx: integer("idx").notNull(),
    /** base, reflective, few_shot, parameter_sweep. */
    strategy: text("strategy").notNull(),
    parentId: uuid("parent_id"),
    /** The revision data the candidate commits (null for the base). */
    proposal: jsonb("proposal").$type<Record<string, unknown>>(),
    summary: text("summary").notNull().default(""),
    revisionId: uuid("revision_id"),
    variantId: uuid("variant_id"),
    variantSlug: text("variant_slug"),
    version: integer("version"),
    trainRunId: uuid("train_run_id"),
    trainScore: doublePrecision("train_score"),
    /** Per testcase id: the mean score over evaluators, with what the evaluators said. */
    trainCases: jsonb("train_cases").$type<Record<string, unknown>>(),
    holdoutRunId: uuid("holdout_run_id"),
    holdoutScore: doublePrecision("holdout_score"),
    holdoutCases: jsonb("holdout_cases").$type<Record<string, unknown>>(),
    /** The optimizer's own model spend for this candidate (its proposal). */
    optimizerCostUsd: numeric("optimizer_cost_usd").notNull().default("0"),
    createdAt: ts("created_at").notNull(),
  },
  (t) => [uniqueIndex("improve_candidates_slot_idx").on(t.optimizationId, t.round, t.idx)],
);
