/**
 * traces-at-scale: the trace reads a person makes all day, timed on a database holding 100 thousand
 * spans and on one holding 10 million, and the ratio of each query's time at the two sizes
 * (target: at most 1.5, i.e. reads that do not slow down as history grows).
 *
 *   npm run bench -- traces-at-scale [--sizes 100000,10000000] [--per-day 20000] [--projects 20] [--rounds 7] [--keep]
 *
 * A database grows by history, not by the rate of today's traffic: every size has the same spans
 * per day (`--per-day`, over all projects), and a larger one holds more days of them (100,000
 * spans are 5 days at 20,000 a day, 10 million are 500). Each size gets a fresh database, migrated,
 * with the spans written by `COPY` (the indexes the queries do not need for loading dropped first
 * and built after it, as a bulk load is done, two at a time; then ANALYZE), on two connections
 * (one per core), each its own half of the traces; the traces' and sessions' time bounds
 * (trace_bounds, session_bounds: what ingest writes with the spans) are copied beside them.
 * Traces are agent runs of four spans (invoke_agent, two chats, a tool) with inputs and outputs
 * on the root; a session holds five consecutive runs of a project.
 *
 * Timed on one project, through tracing's own query functions (no HTTP, no read events):
 * - `agent_24h`, `error_24h`, `attribute_24h`: the trace list of the last day filtered by agent,
 *   by status, by an attribute (`app.tier`), newest first, 50 traces;
 * - `text_24h`: free-text search over the last day's inputs and outputs;
 * - `session`: a session's traces (no time bound in the query: its bounds give one);
 * - `fetch`: one trace by id (likewise).
 * Medians of `--rounds` after a warm-up. PostgreSQL (DATABASE_URL, or the local server). `--keep`
 * leaves the databases in place (their names are in the output) for EXPLAIN by hand.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import postgres from "postgres";
import { loadConfig } from "@/server/core/config";
import { migrateDatabase, openDatabase, rawQuery, type Database } from "@/server/db";
import { traceSearchQuery } from "@/server/tracing";
import { queryTracePage } from "@/server/tracing/query/run-query";
import { parseWindowing } from "@/server/tracing/query/windowing";
import { loadTraces } from "@/server/tracing/store/read-spans";
import { ensurePartitions } from "@/server/tracing/store/partitions";
import { loadAverage, log, machine } from "../lib/benchmark";

const LOCAL_POSTGRES = "postgres://postgres@127.0.0.1:5432/test";
const DAY_MS = 86_400_000;
const SPANS_PER_TRACE = 4;
const RUNS_PER_SESSION = 5;
const AGENTS = 7;
const TIERS = ["gold", "silver", "bronze", "free", "trial"];

interface Options {
  sizes: number[];
  perDay: number;
  projects: number;
  rounds: number;
  keep: boolean;
}

function parseOptions(argv: string[]): Options {
  const out: Options = { sizes: [100_000, 10_000_000], perDay: 20_000, projects: 20, rounds: 7, keep: false };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split("=", 2);
    const value = () => inline ?? argv[++i];
    if (flag === "--sizes") out.sizes = value().split(",").map(Number);
    else if (flag === "--per-day") out.perDay = Number(value());
    else if (flag === "--projects") out.projects = Number(value());
    else if (flag === "--rounds") out.rounds = Number(value());
    else if (flag === "--keep") out.keep = true;
    else throw new Error(`Unknown option ${flag}; known: --sizes, --per-day, --projects, --rounds, --keep`);
  }
  if (out.sizes.length !== 2 || out.sizes.some((s) => !(s > 0))) throw new Error("--sizes takes two span counts");
  return out;
}

const COLUMNS = [
  "project_id",
  "trace_id",
  "span_id",
  "parent_id",
  "start_time",
  "end_time",
  "trace_type",
  "span_type",
  "span_kind",
  "span_name",
  "status_code",
  "session_id",
  "user_id",
  "attributes",
];

const uuidOf = (kind: number, n: number) => {
  const hex = (kind * 1e12 + n).toString(16).padStart(32, "0");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};

/** Where trace t starts (ms), and its project and run number in it. */
function traceAt(t: number, tracesPerDay: number, projects: string[], end: number) {
  return {
    project: projects[t % projects.length],
    nth: Math.floor(t / projects.length),
    start: end - (t / tracesPerDay) * DAY_MS - 60_000,
  };
}

const iso = (ms: number) => new Date(ms).toISOString();

/** Text chunks for COPY, about 64 KB each. */
function* chunked(lines: Iterable<string>): Generator<string> {
  let chunk = "";
  for (const line of lines) {
    chunk += line;
    if (chunk.length > 1 << 16) {
      yield chunk;
      chunk = "";
    }
  }
  if (chunk) yield chunk;
}

/** The COPY text lines of the spans of traces [from, to), trace t starting t/tracesPerDay days before `end`. */
function* spanLines(
  from: number,
  to: number,
  tracesPerDay: number,
  projects: string[],
  end: number,
): Generator<string> {
  for (let t = from; t < to; t++) {
    const { project, nth, start } = traceAt(t, tracesPerDay, projects, end);
    const traceId = uuidOf(1, t);
    const rootId = uuidOf(2, t);
    const failed = t % 29 === 0;
    const agent = `agent-${nth % AGENTS}`;
    const session = `session-${Math.floor(nth / RUNS_PER_SESSION)}`;
    const words = `w${t % 997} w${(t * 7) % 991}`;
    const root = JSON.stringify({
      gen_ai: { agent: { name: agent } },
      app: { tier: TIERS[nth % TIERS.length] },
      ag: { data: { inputs: { question: `please look up ${words} for me` }, outputs: { answer: `found ${words}` } } },
    });
    for (let k = 0; k < SPANS_PER_TRACE; k++) {
      const begin = iso(start + k * 100);
      const finish = iso(start + k * 100 + (k === 0 ? 900 : 200));
      const kind = ["agent", "chat", "tool", "chat"][k];
      const attributes = k === 0 ? root : JSON.stringify({ "gen_ai.request.model": "gpt-4o", step: k });
      yield (
        [
          project,
          traceId,
          k === 0 ? rootId : uuidOf(3 + k, t),
          k === 0 ? "\\N" : rootId,
          begin,
          finish,
          "invocation",
          kind,
          k === 0 ? "SPAN_KIND_SERVER" : "SPAN_KIND_CLIENT",
          k === 0 ? `invoke_agent ${agent}` : `${kind} ${k}`,
          failed && k === 0 ? "STATUS_CODE_ERROR" : "STATUS_CODE_OK",
          session,
          k === 0 ? `user-${nth % 50}` : "\\N",
          attributes,
        ].join("\t") + "\n"
      );
    }
  }
}

/** trace_bounds rows: each trace's first and last span start, as ingest writes them. */
function* traceBoundLines(traces: number, tracesPerDay: number, projects: string[], end: number): Generator<string> {
  for (let t = 0; t < traces; t++) {
    const { project, start } = traceAt(t, tracesPerDay, projects, end);
    yield `${project}\t${uuidOf(1, t)}\t${iso(start)}\t${iso(start + (SPANS_PER_TRACE - 1) * 100)}\n`;
  }
}

/** session_bounds rows: a session's runs are consecutive in its project, the first the latest (t counts back in time). */
function* sessionBoundLines(traces: number, tracesPerDay: number, projects: string[], end: number): Generator<string> {
  const runsOf = projects.length * RUNS_PER_SESSION;
  for (let first = 0; first < traces; first += runsOf) {
    for (let p = 0; p < projects.length && first + p < traces; p++) {
      const latest = first + p;
      const earliest = Math.min(
        first + p + (RUNS_PER_SESSION - 1) * projects.length,
        latest + Math.floor((traces - 1 - latest) / projects.length) * projects.length,
      );
      const { project, nth } = traceAt(latest, tracesPerDay, projects, end);
      const last = traceAt(latest, tracesPerDay, projects, end).start + (SPANS_PER_TRACE - 1) * 100;
      const firstStart = traceAt(earliest, tracesPerDay, projects, end).start;
      yield `${project}\tsession-${Math.floor(nth / RUNS_PER_SESSION)}\t${iso(firstStart)}\t${iso(last)}\n`;
    }
  }
}

async function copyInto(sql: postgres.Sql, table: string, columns: string, lines: Iterable<string>): Promise<void> {
  const writable = await sql.unsafe(`copy ${table} (${columns}) from stdin`).writable();
  await pipeline(Readable.from(chunked(lines)), writable);
}

async function seed(db: Database, url: string, options: Options, size: number, projects: string[], end: number) {
  const traces = Math.ceil(size / SPANS_PER_TRACE);
  const tracesPerDay = options.perDay / SPANS_PER_TRACE;
  const days = Math.ceil(traces / tracesPerDay);
  const period = loadConfig({}).tracing.partitionPeriod;
  await ensurePartitions(
    db,
    db,
    "postgres",
    Array.from({ length: days + 2 }, (_, i) => end - i * DAY_MS),
    period,
  );
  const loaders = [0, 1].map(() => postgres(url, { max: 1, onnotice: () => {} }));
  const [first] = loaders;
  try {
    const rebuilt = await first<{ indexname: string; indexdef: string }[]>`select indexname, indexdef from pg_indexes
      where tablename = 'spans' and indexname <> 'spans_pkey'`;
    for (const index of rebuilt) await first.unsafe(`drop index ${index.indexname}`);
    const started = performance.now();
    const half = Math.ceil(traces / 2);
    await Promise.all([
      (async () => {
        await copyInto(first, "spans", COLUMNS.join(", "), spanLines(0, half, tracesPerDay, projects, end));
        await copyInto(
          first,
          "trace_bounds",
          "project_id, trace_id, first_start, last_start",
          traceBoundLines(traces, tracesPerDay, projects, end),
        );
      })(),
      (async () => {
        await copyInto(loaders[1], "spans", COLUMNS.join(", "), spanLines(half, traces, tracesPerDay, projects, end));
        await copyInto(
          loaders[1],
          "session_bounds",
          "project_id, session_id, first_start, last_start",
          sessionBoundLines(traces, tracesPerDay, projects, end),
        );
      })(),
    ]);
    const copySeconds = (performance.now() - started) / 1000;
    log(`copied ${traces * SPANS_PER_TRACE} spans in ${copySeconds.toFixed(1)} s; building indexes`);
    // A partitioned index's definition reads `ON ONLY spans` (the parent alone, no partition's
    // index): built on `spans`, it is built on every partition. Two at a time (CREATE INDEX takes
    // a SHARE lock, which another CREATE INDEX shares).
    let next = 0;
    await Promise.all(
      loaders.map(async (sql) => {
        await sql`set maintenance_work_mem = '256MB'`;
        for (let i = next++; i < rebuilt.length; i = next++)
          await sql.unsafe(rebuilt[i].indexdef.replace(" ON ONLY ", " ON "));
      }),
    );
    await first`analyze spans`;
    await first`analyze trace_bounds`;
    await first`analyze session_bounds`;
    const seconds = (performance.now() - started) / 1000;
    return {
      spans: traces * SPANS_PER_TRACE,
      days,
      partition_period: period,
      copy_seconds: round(copySeconds),
      seconds: round(seconds),
    };
  } finally {
    await Promise.all(loaders.map((sql) => sql.end()));
  }
}

const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** The timed reads, on the first project; each returns how many traces it found. */
function reads(db: Database, projectId: string, end: number, projects: number) {
  const now = new Date(end);
  const list = (search: Parameters<typeof traceSearchQuery>[0]) => async () => {
    const body = traceSearchQuery(search, now);
    return (await queryTracePage(db, projectId, body.filtering, parseWindowing(body.windowing))).traces.length;
  };
  // A run of the last hours of the project: its session and its trace.
  const recent = projects * 10;
  const nth = Math.floor(recent / projects);
  return {
    agent_24h: list({ since: "24h", agent: "agent-3", limit: 50 }),
    error_24h: list({ since: "24h", status: "error", limit: 50 }),
    attribute_24h: async () => {
      const window = parseWindowing({ limit: 50, oldest: new Date(end - DAY_MS).toISOString() });
      const filtering = { conditions: [{ field: "attributes", key: "app.tier", value: "gold" }] };
      return (await queryTracePage(db, projectId, filtering, window)).traces.length;
    },
    text_24h: list({ since: "24h", text: "w5", limit: 50 }),
    session: async () => {
      const filtering = {
        conditions: [{ field: "session_id", value: `session-${Math.floor(nth / RUNS_PER_SESSION)}` }],
      };
      return (await queryTracePage(db, projectId, filtering, parseWindowing({ limit: 50 }))).traces.length;
    },
    fetch: async () => (await loadTraces(db, projectId, [uuidOf(1, recent)])).size,
  };
}

async function timeReads(db: Database, projectId: string, end: number, options: Options) {
  const out: Record<string, { ms: number; found: number }> = {};
  for (const [name, read] of Object.entries(reads(db, projectId, end, options.projects))) {
    const found = await read();
    const times: number[] = [];
    for (let i = 0; i < options.rounds; i++) {
      const started = performance.now();
      await read();
      times.push(performance.now() - started);
    }
    out[name] = { ms: round(median(times), 2), found };
    log(`${name}: ${out[name].ms} ms (${found} found)`);
  }
  return out;
}

export async function run(argv: string[]): Promise<Record<string, unknown>> {
  const options = parseOptions(argv);
  const base = process.env.DATABASE_URL || LOCAL_POSTGRES;
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  const end = Math.floor(Date.now() / 60_000) * 60_000;
  const projects = Array.from({ length: options.projects }, () => randomUUID());
  const load = [loadAverage()];
  const sizes: Record<string, unknown>[] = [];
  try {
    for (const size of options.sizes) {
      const name = `bench_traces_${randomBytes(4).toString("hex")}`;
      await admin.unsafe(`create database ${name}`);
      const url = new URL(base);
      url.pathname = `/${name}`;
      const handle = await openDatabase({ url: url.toString(), maxConnections: 2 });
      try {
        await migrateDatabase(handle);
        log(`seeding ${size} spans`);
        const seeded = await seed(handle.db, url.toString(), options, size, projects, end);
        const [{ bytes }] = await rawQuery<{ bytes: string }>(
          handle.db,
          `select sum(pg_total_relation_size(i.inhrelid))::text as bytes from pg_inherits i where i.inhparent = 'public.spans'::regclass`,
        );
        sizes.push({
          ...(options.keep ? { database: name } : {}),
          seed: { ...seeded, bytes: Number(bytes) },
          reads: await timeReads(handle.db, projects[0], end, options),
        });
        load.push(loadAverage());
      } finally {
        await handle.close();
        if (!options.keep) await admin.unsafe(`drop database if exists ${name} with (force)`);
      }
    }
  } finally {
    await admin.end();
  }
  const [small, large] = sizes as { reads: Record<string, { ms: number }> }[];
  const ratios = Object.fromEntries(
    Object.keys(small.reads).map((k) => [k, round(large.reads[k].ms / small.reads[k].ms, 2)]),
  );
  return {
    benchmark: "traces-at-scale",
    options,
    sizes,
    ratio_large_to_small: ratios,
    target_ratio: 1.5,
    machine: machine(),
    load_average: load,
  };
}
