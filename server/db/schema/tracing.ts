import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";
import { runDimensions, ts } from "./columns";
import { projects } from "./auth-tenancy";

/** Span times keep microseconds (OTLP sends nanoseconds; PostgreSQL stores microseconds). */
const spanTime = (name: string) => timestamp(name, { withTimezone: true, precision: 6 });

/**
 * The durable ingest queue: one row per accepted request, holding its already-parsed spans as a
 * JSON array. A 202 is sent only after this row is committed; the ingest worker claims rows with
 * FOR UPDATE SKIP LOCKED and deletes each in the transaction that writes its spans
 * (server/tracing/README.md).
 */
export const spanIngest = pgTable("span_ingest", {
  id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
  projectId: uuid("project_id")
    .notNull()
    .references(() => projects.id, { onDelete: "cascade" }),
  receivedAt: ts("received_at").notNull().defaultNow(),
  spanCount: integer("span_count").notNull(),
  /** Failed processing attempts; a row that keeps failing is set aside, never deleted unprocessed. */
  attempts: integer("attempts").notNull().default(0),
  lastError: text("last_error"),
  /** JSON array of normalised spans (server/tracing/span-record.ts), as text: PostgreSQL parses it once, in the worker's insert. */
  payload: text("payload").notNull(),
  /** The traces the spans belong to: the worker locks them and checks them for stored spans without reading the payload. */
  traceIds: uuid("trace_ids").array().notNull(),
  /** Days (since the epoch, UTC) the spans start on: the partitions the row needs. */
  startDays: integer("start_days").array().notNull(),
  /** Set by a trace replacement (PUT, DELETE): these traces lose their stored spans that the payload does not carry. */
  replaceTraces: uuid("replace_traces").array(),
  /**
   * The analytics roll-up of the payload's spans, summed when they were queued (JSON of
   * server/tracing/store/rollup-delta.ts's RollupDelta): the worker's fast path adds it up instead
   * of reading the spans. Null on a row split after a failure (the worker sums those spans itself).
   */
  rollup: text("rollup"),
});

/**
 * Spans, partitioned by range of `start_time` (the migration declares the partitioning, which
 * Drizzle cannot express; the worker creates partitions ahead and drops expired ones). A primary
 * key of a partitioned table must contain the partition key, so it is (project, trace, span,
 * start_time); that a span id occurs once per trace is kept by the worker, which replaces a
 * span's row under a per-trace advisory lock.
 */
export const spans = pgTable(
  "spans",
  {
    projectId: uuid("project_id").notNull(),
    traceId: uuid("trace_id").notNull(),
    spanId: uuid("span_id").notNull(),
    parentId: uuid("parent_id"),
    startTime: spanTime("start_time").notNull(),
    endTime: spanTime("end_time").notNull(),
    traceType: text("trace_type").notNull(),
    spanType: text("span_type").notNull(),
    spanKind: text("span_kind").notNull(),
    spanName: text("span_name").notNull(),
    statusCode: text("status_code").notNull(),
    statusMessage: text("status_message"),
    sessionId: text("session_id"),
    userId: text("user_id"),
    agentId: text("agent_id"),
    attributes: jsonb("attributes").$type<Record<string, unknown>>().notNull(),
    references: jsonb("references").$type<unknown[]>(),
    links: jsonb("links").$type<unknown[]>(),
    events: jsonb("events").$type<unknown[]>(),
    exception: jsonb("exception").$type<Record<string, unknown>>(),
    /** OTLP resource and instrumentation scope: `{attributes, scope: {name, version, attributes}}`. */
    resource: jsonb("resource").$type<Record<string, unknown>>(),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: "spans_pkey", columns: [t.projectId, t.traceId, t.spanId, t.startTime] }),
    index("spans_project_time_idx").on(t.projectId, t.startTime.desc()),
    index("spans_session_idx")
      .on(t.projectId, t.sessionId)
      .where(sql`${t.sessionId} is not null`),
    index("spans_user_idx")
      .on(t.projectId, t.userId)
      .where(sql`${t.userId} is not null`),
    // The spans naming a session or user id, root or not (POST /spans/{sessions,users}/query:
    // tracing's actor-ids.ts, whose condition must stay one half of this predicate word for word).
    // One index for both lists: each list's condition implies the predicate, and a span written
    // updates one index instead of two (server/tracing/README.md, "Session and user lists").
    index("spans_actor_key_idx")
      .on(t.projectId, t.startTime.desc())
      .where(
        sql`session_id is not null or (attributes -> 'ag' -> 'session') ? 'id' or user_id is not null or (attributes -> 'ag' -> 'user') ? 'id'`,
      ),
    index("spans_type_idx").on(t.projectId, t.spanType, t.startTime.desc()),
    index("spans_name_idx").on(t.projectId, t.spanName),
    index("spans_attributes_idx").using("gin", t.attributes.op("jsonb_path_ops")),
  ],
);

/**
 * Where each trace's spans start: the earliest and latest start of its stored spans, written in the
 * transaction that writes them (widened, never narrowed, so it always covers them). A read by
 * trace id takes its time range from here and names only the partitions of `spans` it covers,
 * instead of probing the index of every partition. Rows go with retention.
 */
export const traceBounds = pgTable(
  "trace_bounds",
  {
    projectId: uuid("project_id").notNull(),
    traceId: uuid("trace_id").notNull(),
    firstStart: spanTime("first_start").notNull(),
    lastStart: spanTime("last_start").notNull(),
  },
  (t) => [
    primaryKey({ name: "trace_bounds_pkey", columns: [t.projectId, t.traceId] }),
    index("trace_bounds_last_idx").on(t.projectId, t.lastStart),
  ],
);

/** The same for sessions: the earliest and latest start of the spans naming each session id. */
export const sessionBounds = pgTable(
  "session_bounds",
  {
    projectId: uuid("project_id").notNull(),
    sessionId: text("session_id").notNull(),
    firstStart: spanTime("first_start").notNull(),
    lastStart: spanTime("last_start").notNull(),
  },
  (t) => [
    primaryKey({ name: "session_bounds_pkey", columns: [t.projectId, t.sessionId] }),
    index("session_bounds_last_idx").on(t.projectId, t.lastStart),
  ],
);

/**
 * Span roll-ups: per project, grain (minute, hour, day; UTC), bucket start, run or span and the
 * dimensions analytics groups by, the sums of every span whose start falls in the bucket. Written
 * by tracing's ingest in the transaction that writes the spans (+1 for a span written, -1 for one
 * replaced or deleted, both for a span whose roll-up totals changed), read by server/analytics.
 * A missing dimension is '' (primary key columns cannot be null). No foreign key, like `spans`:
 * the ingest path pays for no extra lookup.
 *
 * `detail` (server/tracing/store/rollup-columns.ts, ROLLUP_DETAIL): a span with a revision, an API
 * key or a user is counted twice, in a row with them (1) and in a row summed over them (2, where
 * they are ''); a span with none of them once (0), a row either kind of query reads. A query that
 * neither groups nor filters by those three reads 0 and 2: a few rows per bucket instead of about
 * one per run. Day buckets also have narrow rows (3 to 10, NARROW_DETAIL): every span once, in a
 * row that keeps one dimension or none, for long windows grouped by at most that dimension.
 * `detail` comes before `bucket` in the key, so each kind is its own index range.
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
