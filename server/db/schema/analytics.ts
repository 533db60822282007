import {
  bigint,
  boolean,
  doublePrecision,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";

/** The dimensions analytics groups a run by, as both roll-ups key them ('' when missing). */
const runDimensions = () => ({
  agent: text("agent").notNull(),
  model: text("model").notNull(),
  provider: text("provider").notNull(),
  environment: text("environment").notNull(),
  revision: text("revision").notNull(),
  apiKey: text("api_key").notNull(),
  userId: text("user_id").notNull(),
});

/**
 * Span roll-ups: per project, grain (minute, hour, day; UTC), bucket start, run or span and the
 * dimensions analytics groups by, the sums of every span whose start falls in the bucket. Written
 * by tracing's ingest in the transaction that writes the spans (+1 for a span written, -1 for one
 * replaced or deleted, both for a span whose roll-up totals changed), read by server/analytics.
 * A missing dimension is '' (primary key columns cannot be null). No foreign key, like `spans`:
 * the ingest path pays for no extra lookup.
 *
 * `detail` (server/tracing/store/span-rollups.ts, ROLLUP_DETAIL): a span with a revision, an API
 * key or a user is counted twice, in a row with them (1) and in a row summed over them (2, where
 * they are ''); a span with none of them once (0), a row either kind of query reads. A query that
 * neither groups nor filters by those three reads 0 and 2: a few rows per bucket instead of about
 * one per run. `detail` comes before `bucket` in the key, so each kind is its own index range.
 *
 * Fillfactor 50 (drizzle/0036): every ingest batch updates the rows of the current buckets, and
 * with room on their page those updates are HOT (no new primary key entry).
 */
export const spanRollups = pgTable(
  "span_rollups",
  {
    projectId: uuid("project_id").notNull(),
    grain: text("grain").notNull(),
    bucket: timestamp("bucket", { withTimezone: true }).notNull(),
    /** 0: no revision, API key or user; 1: with them; 2: the 1 rows summed over them. */
    detail: smallint("detail").notNull(),
    /** A root span (a run) or a span under one. */
    root: boolean("root").notNull(),
    /** invocation, annotation or unknown: a run is the root of a trace that is not an annotation. */
    traceType: text("trace_type").notNull(),
    ...runDimensions(),
    spans: bigint("spans", { mode: "number" }).notNull(),
    errors: bigint("errors", { mode: "number" }).notNull(),
    durationMs: doublePrecision("duration_ms").notNull(),
    /** Durations as a log histogram: `{bin: count}` (server/analytics/README.md). */
    latency: jsonb("latency").$type<Record<string, number>>().notNull(),
    ttftCount: bigint("ttft_count", { mode: "number" }).notNull(),
    ttftMs: doublePrecision("ttft_ms").notNull(),
    ttft: jsonb("ttft").$type<Record<string, number>>().notNull(),
    /** Sums of `ag.metrics.{tokens,costs}.incremental`, every key the spans hold. */
    tokens: jsonb("tokens").$type<Record<string, number>>().notNull(),
    costs: jsonb("costs").$type<Record<string, number>>().notNull(),
    /** Root spans only: sums of `ag.metrics.{tokens,costs}.cumulative` (the run's totals). */
    runTokens: jsonb("run_tokens").$type<Record<string, number>>().notNull(),
    runCosts: jsonb("run_costs").$type<Record<string, number>>().notNull(),
  },
  (t) => [
    primaryKey({
      name: "span_rollups_pkey",
      columns: [
        t.projectId,
        t.grain,
        t.detail,
        t.bucket,
        t.root,
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
