/**
 * Seeds a migrated database with the bench's spans: generated inside PostgreSQL, written straight
 * into their partition, a partition at a time on each loader connection, and each partition's
 * indexes built and its statistics taken right after its rows, while they are in memory.
 *
 * Why (1 M spans, load 10 to 12 on two cores): Node streaming the rows through `COPY spans` took
 * 30.6 s on two connections and the indexes and ANALYZE 30.9 s more; PostgreSQL's own part of that
 * COPY was small (`INSERT … SELECT` of the same rows from a table: 1.9 s), the rest was making and
 * parsing text on both sides. Generating the rows in SQL costs 5.6 s of one core and inserting
 * them as much again. The indexes are the larger half (building each alone: 32 s, of which the
 * full-text GIN 10.7 s); ANALYZE takes about 1.5 s a weekly partition, whatever the size.
 *
 * The schema stays the migrations' own: the primary keys and indexes of spans and of the bounds
 * tables are read from the catalog and dropped, the rows written, and the same definitions run
 * again (table-indexes.ts); each partition gets its indexes first, so the parent's adopt them.
 * Statistics are taken per partition, as the service's statistics worker does
 * (server/db/analyze-grown-tables.ts); the partitioned parent, which it never analyzes, is not.
 */
import postgres from "postgres";
import { loadConfig } from "@/server/core/config";
import type { Database } from "@/server/db";
import { ensurePartitions, listPartitions, type Partition } from "@/server/tracing/store/partitions";
import { createIndexes, dropIndexes, onPartition, readIndexes } from "./table-indexes";

const DAY_MS = 86_400_000;
export const SPANS_PER_TRACE = 4;
export const RUNS_PER_SESSION = 5;
/** The last span of a trace starts this long after its root. */
const LAST_SPAN_MS = (SPANS_PER_TRACE - 1) * 100;

export interface Shape {
  /** Spans a day, over all projects. */
  perDay: number;
  projects: string[];
  /** The newest trace's root starts a minute before this (ms). */
  end: number;
}

/** uuidOf(kind, n): the `n`th id of a kind (trace, root span, child span k), as SQL over bigint `n`. */
const uuidOf = (kind: number | string, n: string) =>
  `lpad(to_hex(${kind}::bigint * 1000000000000 + ${n}), 32, '0')::uuid`;

/**
 * Trace t (t = 0 the newest; parameters: $1 projects uuid[], $2 end ms, $3 traces a day) as SQL
 * expressions over `t`: its project, run number in the project, root start (ms).
 */
const TRACE = {
  project: "($1::uuid[])[t % cardinality($1::uuid[]) + 1]",
  nth: "(t / cardinality($1::uuid[]))",
  startMs: "($2::bigint - 60000 - floor(t * 86400000 / $3::numeric)::bigint)",
};
const atMs = (ms: string) => `timestamptz 'epoch' + (${ms}) * interval '1 millisecond'`;

/**
 * The spans of traces [$4, $5] that start in [$6, $7) ms: agent runs of four spans (invoke_agent,
 * two chats, a tool) with inputs and outputs on the root; a session is five consecutive runs of a
 * project; every 29th trace failed. What is the same for a trace's spans is computed once a trace
 * (`offset 0` keeps the subquery from being merged into the span rows).
 */
const SPANS_SQL = `
select project_id, trace_id, case when k = 0 then root_id else ${uuidOf("3 + k", "t")} end,
       case when k > 0 then root_id end, ${atMs("start_ms")}, ${atMs("start_ms + case when k = 0 then 900 else 200 end")},
       'invocation', kind, case when k = 0 then 'SPAN_KIND_SERVER' else 'SPAN_KIND_CLIENT' end,
       case when k = 0 then 'invoke_agent ' || agent else kind || ' ' || k end,
       case when k = 0 and t % 29 = 0 then 'STATUS_CODE_ERROR' else 'STATUS_CODE_OK' end,
       session_id, case when k = 0 then user_id end,
       case when k = 0 then root_attributes else jsonb_build_object('gen_ai.request.model', 'gpt-4o', 'step', k) end
  from (select t, ${TRACE.project} as project_id, ${uuidOf(1, "t")} as trace_id, ${uuidOf(2, "t")} as root_id,
               ${TRACE.startMs} as root_ms, 'agent-' || nth % 7 as agent,
               'session-' || nth / ${RUNS_PER_SESSION} as session_id, 'user-' || nth % 50 as user_id,
               jsonb_build_object(
                 'gen_ai', jsonb_build_object('agent', jsonb_build_object('name', 'agent-' || nth % 7)),
                 'app', jsonb_build_object('tier', (array['gold', 'silver', 'bronze', 'free', 'trial'])[nth % 5 + 1]),
                 'ag', jsonb_build_object('data', jsonb_build_object(
                   'inputs', jsonb_build_object('question', 'please look up ' || words || ' for me'),
                   'outputs', jsonb_build_object('answer', 'found ' || words)))) as root_attributes
          from generate_series($4::bigint, $5::bigint) t
         cross join lateral (select ${TRACE.nth} as nth, 'w' || t % 997 || ' w' || (t * 7) % 991 as words) w
        offset 0) trace
 cross join generate_series(0, ${SPANS_PER_TRACE - 1}) k
 cross join lateral (select root_ms + k * 100 as start_ms, (array['agent', 'chat', 'tool', 'chat'])[k + 1] as kind) s
 where start_ms >= $6::bigint and start_ms < $7::bigint`;

const SPAN_COLUMNS =
  "project_id, trace_id, span_id, parent_id, start_time, end_time, trace_type, span_type, span_kind, span_name, status_code, session_id, user_id, attributes";

/** trace_bounds and session_bounds of traces [0, $4]: each one's first and last span start, as ingest writes them. */
const TRACE_BOUNDS_SQL = `
insert into trace_bounds (project_id, trace_id, first_start, last_start)
select ${TRACE.project}, ${uuidOf(1, "t")}, ${atMs(TRACE.startMs)}, ${atMs(`${TRACE.startMs} + ${LAST_SPAN_MS}`)}
  from generate_series(0, $4::bigint) t`;
const SESSION_BOUNDS_SQL = `
insert into session_bounds (project_id, session_id, first_start, last_start)
select ${TRACE.project}, 'session-' || ${TRACE.nth} / ${RUNS_PER_SESSION},
       ${atMs(`min(${TRACE.startMs})`)}, ${atMs(`max(${TRACE.startMs}) + ${LAST_SPAN_MS}`)}
  from generate_series(0, $4::bigint) t
 group by 1, 2`;

/** Traces whose spans may start in [from, to): a trace's spans start within LAST_SPAN_MS of its root. */
function tracesIn(p: Partition, shape: Shape, traces: number): [number, number] {
  const tracesPerDay = shape.perDay / SPANS_PER_TRACE;
  const at = (ms: number) => ((shape.end - 60_000 - ms) / DAY_MS) * tracesPerDay;
  return [Math.max(0, Math.floor(at(p.to)) - 1), Math.min(traces - 1, Math.ceil(at(p.from - LAST_SPAN_MS)) + 1)];
}

export interface Seeded {
  spans: number;
  days: number;
  partitions: number;
  partition_period: string;
  /** Wall time, then its split: each phase's share of the loaders' summed time. */
  seconds: number;
  /** Writing the spans and the bounds tables. */
  load_seconds: number;
  /** Building the partitions' indexes, and the parent's adopting them. */
  index_seconds: number;
  analyze_seconds: number;
  /** Each phase summed over the loaders. */
  connection_seconds: Record<string, number>;
}

type Phase = "rows" | "bounds" | "indexes" | "analyze";

/** Seeds `size` spans on `loaders` connections, each taking the next partition not yet written. */
export async function seed(db: Database, url: string, shape: Shape, size: number, loaders: number): Promise<Seeded> {
  const traces = Math.ceil(size / SPANS_PER_TRACE);
  const days = Math.ceil(traces / (shape.perDay / SPANS_PER_TRACE));
  const period = loadConfig({}).tracing.partitionPeriod;
  const times = Array.from({ length: days + 2 }, (_, i) => shape.end - i * DAY_MS);
  await ensurePartitions(db, db, "postgres", times, period);
  const partitions = (await listPartitions(db)).reverse();
  const connections = Array.from({ length: loaders }, () => postgres(url, { max: 1, onnotice: () => {} }));
  const [first] = connections;
  const traceParams = [`{${shape.projects.join(",")}}`, shape.end, shape.perDay / SPANS_PER_TRACE];
  try {
    const [spans, traceBounds, sessionBounds] = await Promise.all(
      ["spans", "trace_bounds", "session_bounds"].map((table) => readIndexes(first, table)),
    );
    for (const table of [spans, traceBounds, sessionBounds]) await dropIndexes(first, table);

    const started = performance.now();
    const spent: Record<Phase, number> = { rows: 0, bounds: 0, indexes: 0, analyze: 0 };
    const timed = async (phase: Phase, work: () => Promise<unknown>) => {
      const from = performance.now();
      await work();
      spent[phase] += performance.now() - from;
    };
    let next = 0;
    await Promise.all(
      connections.map(async (sql, i) => {
        await sql`set synchronous_commit = off`;
        await sql.unsafe(`set maintenance_work_mem = '${Math.floor(1024 / loaders)}MB'`);
        if (i === 0)
          await timed("bounds", async () => {
            await sql.unsafe(TRACE_BOUNDS_SQL, [...traceParams, traces - 1]);
            await sql.unsafe(SESSION_BOUNDS_SQL, [...traceParams, traces - 1]);
            await createIndexes(sql, traceBounds);
            await createIndexes(sql, sessionBounds);
            await sql`analyze trace_bounds, session_bounds`;
          });
        for (let p = next++; p < partitions.length; p = next++) {
          const { name, from, to } = partitions[p];
          await timed("rows", () =>
            sql.unsafe(`insert into public."${name}" (${SPAN_COLUMNS}) ${SPANS_SQL}`, [
              ...traceParams,
              ...tracesIn(partitions[p], shape, traces),
              from,
              to,
            ]),
          );
          await timed("indexes", async () => {
            for (const statement of onPartition(spans, name)) await sql.unsafe(statement);
          });
          // As the service's statistics worker does (server/db/analyze-grown-tables.ts): the
          // partitions, not the partitioned parent.
          await timed("analyze", () => sql.unsafe(`analyze public."${name}"`));
        }
      }),
    );
    const loaded = performance.now();
    await createIndexes(first, spans);
    const done = performance.now();

    const [{ count }] = await first<{ count: string }[]>`select count(*)::text as count from spans`;
    if (Number(count) !== traces * SPANS_PER_TRACE)
      throw new Error(`seeded ${count} spans, expected ${traces * SPANS_PER_TRACE}`);
    const total = Object.values(spent).reduce((a, b) => a + b, 0);
    const wallOf = (...phases: Phase[]) => ((loaded - started) * phases.reduce((a, p) => a + spent[p], 0)) / total;
    return {
      spans: traces * SPANS_PER_TRACE,
      days,
      partitions: partitions.length,
      partition_period: period,
      seconds: seconds(done - started),
      load_seconds: seconds(wallOf("rows", "bounds")),
      index_seconds: seconds(wallOf("indexes") + (done - loaded)),
      analyze_seconds: seconds(wallOf("analyze")),
      connection_seconds: Object.fromEntries(Object.entries(spent).map(([k, v]) => [k, seconds(v)])),
    };
  } finally {
    await Promise.all(connections.map((sql) => sql.end()));
  }
}

const seconds = (ms: number) => Math.round(ms / 100) / 10;
