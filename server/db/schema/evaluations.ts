import { sql } from "drizzle-orm";
import {
  customType,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { ts } from "./columns";
import { projects } from "./auth-tenancy";

type Json = Record<string, unknown>;

/**
 * Any JSON value, strings included. Drizzle's `jsonb` parses a value that comes back as a string
 * once more, so an output "1" would read back as the number 1; this column does not.
 */
const anyJson = customType<{ data: unknown; driverData: unknown }>({
  dataType: () => "jsonb",
  toDriver: (value) => JSON.stringify(value),
  fromDriver: (value) => value,
});

/**
 * An evaluation run: its graph (`data.steps`), repeats and concurrency. `status` follows the
 * reference implementation's enum; `deadline_at` is the run's time budget, set when it starts.
 */
export const evaluationRuns = pgTable(
  "evaluation_runs",
  {
    id: uuid("id").primaryKey(),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    name: text("name"),
    description: text("description"),
    status: text("status").notNull().default("pending"),
    flags: jsonb("flags").$type<Record<string, boolean>>().notNull().default({}),
    tags: jsonb("tags").$type<Json>(),
    meta: jsonb("meta").$type<Json>(),
    data: jsonb("data").$type<Json>().notNull().default({}),
    /** Every step's references, denormalised for `references` containment queries. */
    references: jsonb("references").$type<Json[]>().notNull().default([]),
    startedAt: ts("started_at"),
    deadlineAt: ts("deadline_at"),
    /** A live run: the end of the last window its ticks evaluated. */
    tickedAt: ts("ticked_at"),
    /** When a claim last leased cells of the run: the claim serves the least recently served first. */
    servedAt: ts("served_at"),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at"),
    createdById: uuid("created_by_id"),
    updatedById: uuid("updated_by_id"),
  },
  (t) => [
    index("evaluation_runs_project_idx").on(t.projectId, t.id),
    index("evaluation_runs_active_idx")
      .on(t.status)
      .where(sql`status = 'running'`),
  ],
);

/** One row of a run (a testcase, a trace): its inputs are kept so a re-run needs no source. */
export const evaluationScenarios = pgTable(
  "evaluation_scenarios",
  {
    id: uuid("id").primaryKey(),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    runId: uuid("run_id")
      .notNull()
      .references(() => evaluationRuns.id, { onDelete: "cascade" }),
    status: text("status").notNull().default("pending"),
    interval: integer("interval"),
    timestamp: ts("timestamp"),
    flags: jsonb("flags").$type<Record<string, boolean>>(),
    tags: jsonb("tags").$type<Json>(),
    meta: jsonb("meta").$type<Json>(),
    testcaseId: uuid("testcase_id"),
    inputs: jsonb("inputs").$type<Json>(),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at"),
  },
  (t) => [
    index("evaluation_scenarios_run_idx").on(t.runId, t.id),
    index("evaluation_scenarios_project_idx").on(t.projectId, t.id),
  ],
);

/**
 * A cell: scenario x step x repeat. It is also the unit of work: a `queued` cell with `due_at`
 * reached is claimed by a worker (SKIP LOCKED) under a lease; `due_at` null means it waits for
 * its invocation cell. Only the holder of `lease_token` may write its outcome.
 */
export const evaluationResults = pgTable(
  "evaluation_results",
  {
    id: uuid("id").primaryKey(),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    runId: uuid("run_id")
      .notNull()
      .references(() => evaluationRuns.id, { onDelete: "cascade" }),
    scenarioId: uuid("scenario_id")
      .notNull()
      .references(() => evaluationScenarios.id, { onDelete: "cascade" }),
    stepKey: text("step_key").notNull(),
    repeatIdx: integer("repeat_idx").notNull().default(0),
    status: text("status").notNull().default("pending"),
    traceId: text("trace_id"),
    testcaseId: uuid("testcase_id"),
    hashId: text("hash_id"),
    error: jsonb("error").$type<Json>(),
    interval: integer("interval"),
    timestamp: ts("timestamp"),
    flags: jsonb("flags").$type<Record<string, boolean>>(),
    tags: jsonb("tags").$type<Json>(),
    meta: jsonb("meta").$type<Json>(),
    /** What the step produced: the application's output or the evaluator's outputs. */
    outputs: anyJson("outputs"),
    latencyMs: doublePrecision("latency_ms"),
    tokens: integer("tokens"),
    costUsd: doublePrecision("cost_usd"),
    /**
     * A live evaluator cell's key and values in `evaluation_score_rollups` (bucket, evaluation,
     * evaluator, dimensions, score, success), set by the table's trigger when it counts there, so
     * a change or delete takes out exactly what was added. Null when the cell counts nowhere.
     */
    scoreRollup: jsonb("score_rollup").$type<Record<string, unknown>>(),
    dueAt: ts("due_at"),
    leaseUntil: ts("lease_until"),
    leaseToken: uuid("lease_token"),
    attempts: integer("attempts").notNull().default(0),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at"),
  },
  (t) => [
    uniqueIndex("evaluation_results_cell_idx").on(t.runId, t.scenarioId, t.stepKey, t.repeatIdx),
    index("evaluation_results_scenario_idx").on(t.scenarioId),
    index("evaluation_results_project_idx").on(t.projectId, t.id),
    index("evaluation_results_work_idx").on(t.runId, t.status, t.dueAt, t.id),
  ],
);

/** Global (no scenario, no timestamp), variational (scenario) or temporal (timestamp) metrics. */
export const evaluationMetrics = pgTable(
  "evaluation_metrics",
  {
    id: uuid("id").primaryKey(),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    runId: uuid("run_id")
      .notNull()
      .references(() => evaluationRuns.id, { onDelete: "cascade" }),
    scenarioId: uuid("scenario_id").references(() => evaluationScenarios.id, { onDelete: "cascade" }),
    timestamp: ts("timestamp"),
    interval: integer("interval"),
    status: text("status").notNull().default("pending"),
    data: jsonb("data").$type<Json>(),
    flags: jsonb("flags").$type<Record<string, boolean>>(),
    tags: jsonb("tags").$type<Json>(),
    meta: jsonb("meta").$type<Json>(),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at"),
  },
  (t) => [
    uniqueIndex("evaluation_metrics_global_idx")
      .on(t.runId)
      .where(sql`scenario_id is null and timestamp is null`),
    uniqueIndex("evaluation_metrics_variational_idx")
      .on(t.runId, t.scenarioId)
      .where(sql`scenario_id is not null and timestamp is null`),
    uniqueIndex("evaluation_metrics_temporal_idx")
      .on(t.runId, t.timestamp)
      .where(sql`timestamp is not null and scenario_id is null`),
    index("evaluation_metrics_project_idx").on(t.projectId, t.id),
  ],
);

/** Human review: who annotates which scenarios of a run. At most one default queue per run. */
export const evaluationQueues = pgTable(
  "evaluation_queues",
  {
    id: uuid("id").primaryKey(),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    runId: uuid("run_id")
      .notNull()
      .references(() => evaluationRuns.id, { onDelete: "cascade" }),
    name: text("name"),
    description: text("description"),
    status: text("status").notNull().default("pending"),
    flags: jsonb("flags").$type<Record<string, boolean>>().notNull().default({}),
    tags: jsonb("tags").$type<Json>(),
    meta: jsonb("meta").$type<Json>(),
    data: jsonb("data").$type<Json>(),
    deletedAt: ts("deleted_at"),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at"),
    createdById: uuid("created_by_id"),
  },
  (t) => [
    uniqueIndex("evaluation_queues_default_idx")
      .on(t.runId)
      .where(sql`(flags ->> 'is_default')::boolean`),
    index("evaluation_queues_project_idx").on(t.projectId, t.id),
  ],
);
