/**
 * analytics: the analytics query answered from the roll-ups next to the same answer computed by a
 * scan of `spans`, over 90 days of spans in 20 projects; and ingest throughput (the worker's
 * passes) with and without the roll-ups.
 *
 *   npm run bench -- analytics [--spans 10000000] [--projects 20] [--days 90] [--ingest-spans 20000] [--ingest-window 60] [--rounds 3] [--database NAME] [--compact]
 *
 * Seeding is set-based: each statement generates the agent-like traces (a root, two model calls
 * with tokens and costs, a tool call) of one UTC day with generate_series and writes them with
 * their roll-ups, computed in SQL from the scan's own facts (seed-rollups.ts). A statement per
 * day, because then no statement meets another's roll-up rows (keys hold the bucket, and a day
 * holds its hours and quarters): statements of traces spread over all 90 days met nearly every
 * key again and merged maps row by row (1 million spans took 802 s). Queries run on one
 * project (1/20 of the spans): 90 days by day, 7 days by hour, 24 hours by hour, grouped by
 * model, and the 90 days again from the wide day rows (a filter true of every span that names
 * the agent, so the model's narrow day rows cannot answer it: the same run's before); each answer is compared with the scan's (they must be equal), and the median of
 * `--rounds` runs of each is reported, after a pair not timed (warm-up). Ingest (none with `--ingest-spans 0`): `--ingest-spans` spans, starting within the last
 * `--ingest-window` minutes (60: each worker batch meets five quarter hours and two hours; 1: spans
 * as they arrive live, in one or two quarter hours), queued through
 * `recordSpans` in requests of 100 (where the roll-up is summed), then written by the worker's
 * passes (where it is upserted), both timed, in `--rounds` pairs (bare and with roll-ups, the
 * order alternating) after a warm-up pair; the medians and each pair's ratio are reported, and
 * the request side and the worker side apart. PostgreSQL (DATABASE_URL, or the local server); a fresh
 * database is created and dropped, unless `--database NAME` names one to keep: created and seeded
 * when it holds no spans, else reused as it is (migrated to the current schema; its projects and
 * end read back from its spans), so a 10-million-span seed serves several runs of new code.
 * `--compact` runs the roll-up compaction (server/analytics/rollup-compaction.ts) to the end before
 * the queries, at the seed's end as the clock, and reports the rows before and after and its time.
 */
import { randomBytes } from "node:crypto";
import { isDeepStrictEqual } from "node:util";
import postgres from "postgres";
import { COMPACTION_GRACE_MS, drainRollupCompaction, queryAnalytics, type AnalyticsQuery } from "@/server/analytics";
import { loadConfig } from "@/server/core/config";
import { migrateDatabase, openDatabase, rawQuery, type Database } from "@/server/db";
import { recordSpans, type SpanInput } from "@/server/tracing";
import { processIngestBatch } from "@/server/tracing/ingest/process-batch";
import { ensurePartitions } from "@/server/tracing/store/partitions";
import { CHANGE_COLUMNS, withRollups } from "./seed-rollups";
import { loadAverage, log, machine } from "../lib/benchmark";
import { processCpuMs } from "../lib/process-cpu";

const LOCAL_POSTGRES = "postgres://postgres@127.0.0.1:5432/test";
const DAY_MS = 86_400_000;

interface Options {
  spans: number;
  projects: number;
  days: number;
  ingestSpans: number;
  /** Minutes before now within which ingested spans start. */
  ingestWindow: number;
  rounds: number;
  /** A database kept between runs (seeded once). */
  database?: string;
  /** Compact the roll-ups before the queries. */
  compact: boolean;
}

function parseOptions(argv: string[]): Options {
  const out: Options = {
    spans: 10_000_000,
    projects: 20,
    days: 90,
    ingestSpans: 20_000,
    ingestWindow: 60,
    rounds: 3,
    compact: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split("=", 2);
    // Counts are whole numbers; only --ingest-spans may be 0 (no ingest measured).
    const value = (least = 1) => {
      const raw = inline ?? argv[++i];
      const n = Number(raw);
      if (!Number.isInteger(n) || n < least)
        throw new Error(`${flag} takes a whole number of at least ${least}, not ${raw}`);
      return n;
    };
    if (flag === "--database") out.database = inline ?? argv[++i];
    else if (flag === "--compact") out.compact = true;
    else if (flag === "--spans") out.spans = value();
    else if (flag === "--projects") out.projects = value();
    else if (flag === "--days") out.days = value();
    else if (flag === "--ingest-spans") out.ingestSpans = value(0);
    else if (flag === "--ingest-window") out.ingestWindow = value();
    else if (flag === "--rounds") out.rounds = value();
    else
      throw new Error(
        `Unknown option ${flag}; known: --spans, --projects, --days, --ingest-spans, --ingest-window, --rounds, --database, --compact`,
      );
  }
  if (out.database !== undefined && !/^[a-z_][a-z0-9_]*$/.test(out.database))
    throw new Error("--database takes a lower-case identifier");
  return out;
}

/** Four spans per trace: root `invoke_agent`, `chat`, `execute_tool`, `chat`; $1 projects, $2 the day's start, $3 its seconds, $4/$5 trace range. */
const SEED = withRollups(`span_changes as (
  insert into spans (project_id, trace_id, span_id, parent_id, start_time, end_time, trace_type, span_type, span_kind,
    span_name, status_code, user_id, agent_id, attributes, "references")
  select tr.project_id, tr.trace_id,
    case when k = 0 then tr.root_id else md5('s' || tr.t || '-' || k)::uuid end,
    case when k = 0 then null else tr.root_id end,
    tr.start + k * interval '100 milliseconds',
    tr.start + k * interval '100 milliseconds' + (case when k = 0 then tr.duration_ms else tr.duration_ms / 4 end) * interval '1 millisecond',
    'invocation', (array['agent', 'chat', 'tool', 'chat'])[k + 1],
    case when k = 0 then 'SPAN_KIND_SERVER' else 'SPAN_KIND_CLIENT' end,
    (array['invoke_agent ', 'chat ', 'execute_tool search', 'chat '])[k + 1] || case when k = 2 then '' else tr.model end,
    case when tr.failed and k in (0, 3) then 'STATUS_CODE_ERROR' else 'STATUS_CODE_OK' end,
    case when k = 0 then tr.user_id end, null,
    jsonb_build_object('ag', jsonb_build_object(
      'type', jsonb_build_object('trace', 'invocation', 'span', (array['agent', 'chat', 'tool', 'chat'])[k + 1]),
      'meta', jsonb_build_object('system', tr.provider, 'request', jsonb_build_object('model', tr.model)),
      'metrics', case
        when k = 0 then jsonb_build_object(
          'tokens', jsonb_build_object('cumulative', jsonb_build_object('prompt', 2 * tr.prompt, 'completion', 2 * tr.completion, 'cache_read', tr.prompt / 2)),
          'costs', jsonb_build_object('cumulative', jsonb_build_object('prompt', 2 * tr.prompt * 0.0000025, 'completion', 2 * tr.completion * 0.00001)))
        when k in (1, 3) then jsonb_build_object(
          'tokens', jsonb_build_object('incremental', jsonb_build_object('prompt', tr.prompt, 'completion', tr.completion) || case when k = 1 then jsonb_build_object('cache_read', tr.prompt / 2) else '{}'::jsonb end),
          'costs', jsonb_build_object('incremental', jsonb_build_object('prompt', tr.prompt * 0.0000025, 'completion', tr.completion * 0.00001)))
        else '{}'::jsonb end)),
    case when k = 0 then jsonb_build_array(
      jsonb_build_object('id', tr.agent, 'attributes', jsonb_build_object('key', 'workflow')),
      jsonb_build_object('id', tr.agent || '-rev-' || (tr.t % 4), 'attributes', jsonb_build_object('key', 'workflow_revision')),
      jsonb_build_object('slug', (array['production', 'staging'])[1 + tr.t % 2], 'attributes', jsonb_build_object('key', 'environment'))) end
  from (
    select t, ($1::text::uuid[])[1 + t % array_length($1::text::uuid[], 1)] as project_id,
      md5('t' || t)::uuid as trace_id, md5('r' || t)::uuid as root_id,
      $2::timestamptz + ((t * 7919) % $3::int) * interval '1 second' as start,
      300 + (t * 131) % 8000 as duration_ms, t % 29 = 0 as failed,
      (array['gpt-4o', 'claude-sonnet-4', 'gemini-2.5-flash'])[1 + t % 3] as model,
      (array['openai', 'anthropic', 'google'])[1 + t % 3] as provider,
      'agent-' || (t % 7) as agent, 'user-' || (t % 50) as user_id,
      100 + (t * 17) % 2000 as prompt, 10 + (t * 7) % 400 as completion
    from generate_series($4::bigint, $5::bigint) as t
  ) tr cross join generate_series(0, 3) as k
  returning ${CHANGE_COLUMNS("spans")}, 1 as sign)`);

/** The paths where two JSON values differ, with both values. */
function differences(a: unknown, b: unknown, path = ""): string[] {
  if (typeof a === "object" && a !== null && typeof b === "object" && b !== null) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].flatMap((k) =>
      differences((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`),
    );
  }
  return a === b ? [] : [`${path} (scan ${JSON.stringify(a)}, roll-up ${JSON.stringify(b)})`];
}

async function timeIt<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await fn();
  return { ms: performance.now() - started, value };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;

async function seed(db: Database, url: string, options: Options, projects: string[], end: Date) {
  const period = loadConfig({}).tracing.partitionPeriod;
  const days = Array.from({ length: options.days + 2 }, (_, i) => end.getTime() - i * DAY_MS);
  await ensurePartitions(db, db, "postgres", days, period);
  const traces = Math.ceil(options.spans / 4);
  const perDay = Math.ceil(traces / options.days);
  // UTC days back from the one `end` falls in (the day before, when `end` is a midnight); the
  // newest is cut at `end`, so no span starts after it.
  const lastMidnight = Math.floor((end.getTime() - 1) / DAY_MS) * DAY_MS;
  // Bulk loading as one would: the indexes of `spans` the timed queries do not use are dropped for
  // the load and built again after it (the GIN index on attributes cost most of each insert).
  // Two connections (one per core), each on its own days, whose sorts and groupings of a day's
  // spans fit in memory (the default 4 MB spilled them to disk); the queries timed later run on
  // other connections, with the server's settings.
  const seeders = [0, 1].map(() => postgres(url, { max: 1, onnotice: () => {} }));
  const [first] = seeders;
  const rebuilt = await first<{ indexname: string; indexdef: string }[]>`select indexname, indexdef from pg_indexes
    where tablename = 'spans' and indexname not in ('spans_pkey', 'spans_project_time_idx')`;
  for (const index of rebuilt) await first.unsafe(`drop index ${index.indexname}`);
  const started = performance.now();
  let next = 0;
  let seeded = 0;
  await Promise.all(
    seeders.map(async (seeder) => {
      await seeder`set work_mem = '512MB'`;
      for (let day = next++; day < options.days; day = next++) {
        const from = day * perDay + 1;
        const to = Math.min(traces, from + perDay - 1);
        if (from > to) break;
        const dayStart = lastMidnight - day * DAY_MS;
        const seconds = (Math.min(end.getTime(), dayStart + DAY_MS) - dayStart) / 1000;
        await seeder.unsafe(SEED, [`{${projects.join(",")}}`, new Date(dayStart).toISOString(), seconds, from, to]);
        seeded += (to - from + 1) * 4;
        log(`seeded ${seeded} spans (${round((performance.now() - started) / 1000)} s)`);
      }
    }),
  );
  const spansSeconds = round((performance.now() - started) / 1000);
  await first`set maintenance_work_mem = '1GB'`;
  // A partitioned index's definition reads `ON ONLY spans` (the parent alone, no partition's
  // index): built on `spans`, it is built on every partition.
  for (const index of rebuilt) await first.unsafe(index.indexdef.replace(" ON ONLY ", " ON "));
  await Promise.all(seeders.map((seeder) => seeder.end()));
  await rawQuery(db, "analyze spans");
  await rawQuery(db, "analyze span_rollups");
  const seconds = round((performance.now() - started) / 1000);
  return { spans: traces * 4, seconds, loading_seconds: spansSeconds, index_seconds: round(seconds - spansSeconds) };
}

async function compareQueries(db: Database, projectId: string, end: Date, rounds: number) {
  const cases: [string, AnalyticsQuery][] = [
    [
      "90d_by_day",
      {
        windowing: {
          oldest: new Date(end.getTime() - 90 * DAY_MS).toISOString(),
          newest: end.toISOString(),
          bucket: "day",
        },
        group_by: "model",
      },
    ],
    [
      // The same query and answer from the wide day rows (as before the narrow ones): a filter that
      // names the agent, true of every span, keeps it off the model's narrow rows.
      "90d_by_day_wide_rows",
      {
        windowing: {
          oldest: new Date(end.getTime() - 90 * DAY_MS).toISOString(),
          newest: end.toISOString(),
          bucket: "day",
        },
        group_by: "model",
        filtering: {
          operator: "or",
          conditions: [
            { field: "agent", operator: "exists" },
            { field: "agent", operator: "not_exists" },
          ],
        },
      },
    ],
    [
      "7d_by_hour",
      {
        windowing: {
          oldest: new Date(end.getTime() - 7 * DAY_MS).toISOString(),
          newest: end.toISOString(),
          bucket: "hour",
        },
        group_by: "model",
      },
    ],
    [
      "24h_by_hour",
      {
        windowing: {
          oldest: new Date(end.getTime() - DAY_MS).toISOString(),
          newest: end.toISOString(),
          bucket: "hour",
        },
        group_by: "model",
      },
    ],
  ];
  const out: Record<string, unknown> = {};
  for (const [name, query] of cases) {
    const rollup: number[] = [];
    const scan: number[] = [];
    let same = true;
    let runs = 0;
    // A pair first, not timed, as ingest's warm-up round: a process's first queries pay for
    // compiling its code and collecting the garbage of its start (up to 200 ms in one roll-up
    // query here), no part of a query's cost in a running server.
    await queryAnalytics(db, projectId, query, { now: end });
    await queryAnalytics(db, projectId, query, { now: end, scan: true });
    for (let i = 0; i < rounds; i++) {
      const r = await timeIt(() => queryAnalytics(db, projectId, query, { now: end }));
      const s = await timeIt(() => queryAnalytics(db, projectId, query, { now: end, scan: true }));
      rollup.push(r.ms);
      scan.push(s.ms);
      const scanned = { ...s.value, source: "rollup" };
      if (!isDeepStrictEqual(scanned, r.value)) {
        same = false;
        log(`${name}: the answers differ at ${differences(scanned, r.value).slice(0, 5).join(", ")}`);
      }
      runs = r.value.metrics.count;
    }
    out[name] = {
      runs,
      rollup_ms: round(median(rollup)),
      scan_ms: round(median(scan)),
      scan_to_rollup_ratio: round(median(scan) / median(rollup)),
      same_answer: same,
    };
    log(`${name}: ${JSON.stringify(out[name])}`);
  }
  return out;
}

/** Agent-like traces of 4 spans, as a client sends them, starting within the last `windowMinutes`. */
function ingestTraces(count: number, windowMinutes: number): SpanInput[] {
  const spans: SpanInput[] = [];
  for (let i = 0; i < count; i++) {
    const traceId = randomBytes(16).toString("hex");
    const root = randomBytes(8).toString("hex");
    const start = Date.now() - Math.floor(Math.random() * windowMinutes * 60_000);
    const at = (ms: number) => new Date(start + ms).toISOString();
    const model = ["gpt-4o", "claude-sonnet-4", "gemini-2.5-flash"][i % 3];
    spans.push({
      trace_id: traceId,
      span_id: root,
      span_name: "invoke_agent bench",
      start_time: at(0),
      end_time: at(900),
      attributes: {
        "gen_ai.operation.name": "invoke_agent",
        "gen_ai.request.model": model,
        "ag.references.workflow.id": `agent-${i % 7}`,
      },
    });
    for (const [k, name] of ["chat", "execute_tool search", "chat"].entries()) {
      spans.push({
        trace_id: traceId,
        span_id: randomBytes(8).toString("hex"),
        parent_id: root,
        span_name: name === "chat" ? `chat ${model}` : name,
        start_time: at(100 + k * 200),
        end_time: at(250 + k * 200),
        attributes:
          name === "chat"
            ? {
                "gen_ai.operation.name": "chat",
                "gen_ai.request.model": model,
                "gen_ai.usage.input_tokens": 500 + i,
                "gen_ai.usage.output_tokens": 40,
              }
            : { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "search" },
      });
    }
  }
  return spans;
}

/** CPU (ms) of this process and of the bench database's backends, from /proc: less moved by the load than time. */
async function cpuNow(admin: postgres.Sql, database: string): Promise<{ node: number; database: Map<number, number> }> {
  const backends = await admin<{ pid: number }[]>`select pid from pg_stat_activity where datname = ${database}`;
  const byPid = new Map<number, number>();
  for (const { pid } of backends) {
    try {
      byPid.set(pid, processCpuMs(pid));
    } catch {
      // A backend that ended between the two reads.
    }
  }
  const { user, system } = process.cpuUsage();
  return { node: (user + system) / 1000, database: byPid };
}

function cpuSince(before: Awaited<ReturnType<typeof cpuNow>>, after: Awaited<ReturnType<typeof cpuNow>>) {
  let database = 0;
  for (const [pid, ms] of after.database) database += ms - (before.database.get(pid) ?? 0);
  return { node: after.node - before.node, database };
}

async function ingestRound(
  db: Database,
  admin: postgres.Sql,
  database: string,
  projectId: string,
  options: Options,
  rollups: boolean,
) {
  const config = loadConfig({}).tracing;
  const all = ingestTraces(Math.ceil(options.ingestSpans / 4), options.ingestWindow);
  // As the ingest route does: every span carries the key that sent it, so each roll-up row is
  // also kept summed over keys (twice the rows of spans without one).
  const apiKeyId = crypto.randomUUID();
  const cpuBefore = await cpuNow(admin, database);
  const queue = await timeIt(async () => {
    for (let i = 0; i < all.length; i += 100)
      await recordSpans(db, projectId, all.slice(i, i + 100), { config, rollups, apiKeyId });
  });
  const write = await timeIt(async () => {
    for (;;) {
      const result = await processIngestBatch(db, "postgres", { rows: 64, period: config.partitionPeriod, rollups });
      if (result.rowIds.length === 0) break;
    }
  });
  const cpu = cpuSince(cpuBefore, await cpuNow(admin, database));
  return {
    rate: (all.length / (queue.ms + write.ms)) * 1000,
    queueMs: queue.ms,
    writeMs: write.ms,
    cpuUsPerSpan: ((cpu.node + cpu.database) * 1000) / all.length,
    nodeCpuUsPerSpan: (cpu.node * 1000) / all.length,
  };
}

export async function run(argv: string[]) {
  const options = parseOptions(argv);
  const base = process.env.DATABASE_URL ?? LOCAL_POSTGRES;
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  const name = options.database ?? `bench_analytics_${randomBytes(4).toString("hex")}`;
  const exists = await admin`select 1 from pg_database where datname = ${name}`;
  if (exists.length === 0) await admin.unsafe(`create database ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ url: url.toString(), maxConnections: 2 });
  try {
    await migrateDatabase(handle);
    const db = handle.db;
    const [kept] = await rawQuery<{ projects: string[] | null; latest: string | null }>(
      db,
      `select array_agg(distinct project_id::text order by project_id::text) as projects, max(start_time)::text as latest
        from spans where project_id not in (select id from projects)`,
    );
    const reused = kept.latest !== null;
    const projects = reused
      ? kept.projects!
      : Array.from({ length: options.projects }, () => crypto.randomUUID()).sort();
    // A reused database's spans end before the hour its seed started at.
    const end = new Date(
      Math.floor((reused ? Date.parse(kept.latest!) : Date.now()) / 3_600_000 + (reused ? 1 : 0)) * 3_600_000,
    );
    const load = [loadAverage()];
    const seeded = reused ? { reused: name } : await seed(db, url.toString(), options, projects, end);
    const rollupRows = async () =>
      Number((await rawQuery<{ rows: string }>(db, "select count(*)::text as rows from span_rollups"))[0].rows);
    const rows = await rollupRows();
    let compaction: Record<string, number> | undefined;
    if (options.compact) {
      // The first drain sets the marks; the rows under them go once the marks are a grace period old.
      const later = new Date(end.getTime() + COMPACTION_GRACE_MS);
      const compacted = await timeIt(async () => {
        await drainRollupCompaction({ db, now: () => end }, Number.MAX_SAFE_INTEGER);
        await drainRollupCompaction({ db, now: () => later }, Number.MAX_SAFE_INTEGER);
      });
      await rawQuery(db, "vacuum analyze span_rollups");
      const after = await rollupRows();
      compaction = { rows_deleted: rows - after, seconds: round(compacted.ms / 1000), rows_after: after };
      log(`compaction: ${JSON.stringify(compaction)}`);
    }
    const queries = await compareQueries(db, projects[0], end, options.rounds);
    load.push(loadAverage());
    const summary = {
      machine: machine(),
      load_average: load,
      options,
      seed: { ...seeded, rollup_rows: rows },
      ...(compaction ? { compaction } : {}),
      queries,
    };
    if (options.ingestSpans === 0) return { ...summary, ingest: "not measured (--ingest-spans 0)" };

    const ingest = { bare: [] as number[], rollups: [] as number[] };
    type Part = { queue_ms: number; write_ms: number; cpu_us_per_span: number; of_which_node: number };
    const parts = { bare: [] as Part[], rollups: [] as Part[] };
    const pairs = { throughput_cost: [] as number[], cpu_cost: [] as number[] };
    // Round 0 warms up (JIT, caches) and is not counted. Each round is a pair, its order
    // alternating; a checkpoint before each run keeps the checkpointer's writes out of the timings.
    for (let i = 0; i <= options.rounds; i++) {
      const pair: Partial<Record<"bare" | "rollups", Awaited<ReturnType<typeof ingestRound>>>> = {};
      for (const rollups of i % 2 === 0 ? [false, true] : [true, false]) {
        const projectId = crypto.randomUUID();
        await rawQuery(db, "insert into projects (id, name) values ($1::uuid, 'bench ingest')", [projectId]);
        await admin.unsafe("checkpoint");
        const r = await ingestRound(db, admin, name, projectId, options, rollups);
        pair[rollups ? "rollups" : "bare"] = r;
        log(
          `${i === 0 ? "warm-up: " : ""}ingest ${rollups ? "with" : "without"} roll-ups: ${round(r.rate)} spans/s, ${round(r.cpuUsPerSpan)} µs CPU per span`,
        );
      }
      if (i === 0) continue;
      for (const kind of ["bare", "rollups"] as const) {
        const r = pair[kind]!;
        ingest[kind].push(round(r.rate));
        parts[kind].push({
          queue_ms: round(r.queueMs),
          write_ms: round(r.writeMs),
          cpu_us_per_span: round(r.cpuUsPerSpan),
          of_which_node: round(r.nodeCpuUsPerSpan),
        });
      }
      pairs.throughput_cost.push(round(1 - pair.rollups!.rate / pair.bare!.rate, 3));
      pairs.cpu_cost.push(round(pair.rollups!.cpuUsPerSpan / pair.bare!.cpuUsPerSpan - 1, 3));
    }
    load.push(loadAverage());
    const bare = median(ingest.bare);
    const withRollups = median(ingest.rollups);
    const cpuBare = median(parts.bare.map((p) => p.cpu_us_per_span));
    const cpuRollups = median(parts.rollups.map((p) => p.cpu_us_per_span));
    return {
      ...summary,
      ingest: {
        spans_per_round: Math.ceil(options.ingestSpans / 4) * 4,
        start_window_minutes: options.ingestWindow,
        without_rollups_spans_per_s: bare,
        with_rollups_spans_per_s: withRollups,
        rounds: ingest,
        request_and_worker_ms: parts,
        cost_of_rollups: round(1 - withRollups / bare, 3),
        cpu_us_per_span: { without_rollups: cpuBare, with_rollups: cpuRollups },
        cpu_cost_of_rollups: round(cpuRollups / cpuBare - 1, 3),
        // Each pair ran back to back, so its ratio is less moved by the machine than the medians'.
        pairs: {
          ...pairs,
          median_throughput_cost: median(pairs.throughput_cost),
          median_cpu_cost: median(pairs.cpu_cost),
        },
      },
    };
  } finally {
    await handle.close();
    if (options.database === undefined) await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}
