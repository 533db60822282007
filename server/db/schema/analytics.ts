import {
  bigint,
  doublePrecision,
  index,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";
import { projects } from "./auth-tenancy";
import { runDimensions, ts } from "./columns";

/**
 * Score roll-ups of live evaluations: per project, grain, bucket (the start of the scored run's
 * root span), live evaluation run, evaluator and the run's dimensions, the sums of its evaluator
 * results. Written by triggers on `evaluation_results` (drizzle/0032), in the transaction of
 * every write of a cell, whatever path writes it; read by server/analytics and monitors.
 */
export const evaluationScoreRollups = pgTable(
  "evaluation_score_rollups",
  {
    projectId: uuid("project_id").notNull(),
    grain: text("grain").notNull(),
    bucket: timestamp("bucket", { withTimezone: true }).notNull(),
    /** The live evaluation run. */
    evaluation: uuid("evaluation").notNull(),
    /** The evaluator's id (its step's `references.evaluator.id`, else its revision id, else the step key). */
    evaluator: text("evaluator").notNull(),
    traceType: text("trace_type").notNull(),
    ...runDimensions(),
    /** Results counted: a numeric `score` or a boolean `success` in the outputs. */
    results: bigint("results", { mode: "number" }).notNull(),
    scores: bigint("scores", { mode: "number" }).notNull(),
    scoreSum: doublePrecision("score_sum").notNull(),
    verdicts: bigint("verdicts", { mode: "number" }).notNull(),
    passes: bigint("passes", { mode: "number" }).notNull(),
  },
  (t) => [
    primaryKey({
      name: "evaluation_score_rollups_pkey",
      columns: [
        t.projectId,
        t.grain,
        t.bucket,
        t.evaluation,
        t.evaluator,
        t.traceType,
        t.agent,
        t.model,
        t.provider,
        t.environment,
        t.revision,
        t.apiKey,
        t.userId,
      ],
    }),
  ],
);

/**
 * A project's saved analytics dashboards (server/analytics/dashboards); this area's, like the score roll-ups: a name and its charts,
 * each a query the analytics API answers (metric, range, group, filtering), validated when saved.
 */
export const analyticsDashboards = pgTable(
  "analytics_dashboards",
  {
    id: uuid("id").primaryKey(),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** `[{title, metric, range, focus?, group_by?, filtering?}]` (server/analytics/dashboards/dashboard-input.ts). */
    charts: jsonb("charts").$type<Record<string, unknown>[]>().notNull(),
    createdBy: uuid("created_by"),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [index("analytics_dashboards_project_idx").on(t.projectId, t.createdAt)],
);

/**
 * How far the span roll-ups' compaction (server/analytics/rollup-compaction.ts) has gone, per
 * project, fine grain and detail: no row of them starts before `compacted_before` once the
 * compaction has caught up, and a query whose window starts before it scans the spans instead.
 * `set_at` (the app's clock) is when the mark last moved: rows under it are deleted only once it
 * is older than any query (a query that read the old mark never meets rows half deleted).
 */
export const rollupCompaction = pgTable(
  "rollup_compaction",
  {
    projectId: uuid("project_id").notNull(),
    grain: text("grain").notNull(),
    detail: smallint("detail").notNull(),
    compactedBefore: ts("compacted_before").notNull(),
    setAt: ts("set_at").notNull(),
  },
  (t) => [primaryKey({ name: "rollup_compaction_pkey", columns: [t.projectId, t.grain, t.detail] })],
);
