import { bigint, doublePrecision, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { runDimensions } from "./columns";

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
