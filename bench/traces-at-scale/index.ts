/**
 * traces-at-scale: the trace reads a person makes all day, timed on a database holding 100 thousand
 * spans and on one holding 10 million, and the ratio of each query's time at the two sizes
 * (target: at most 1.5, i.e. reads that do not slow down as history grows).
 *
 *   npm run bench -- traces-at-scale [--sizes 100000,10000000] [--per-day 20000] [--projects 20] [--rounds 7]
 *                                    [--loaders <cores>] [--keep]
 *
 * A database grows by history, not by the rate of today's traffic: every size has the same spans
 * per day (`--per-day`, over all projects), and a larger one holds more days of them (100,000
 * spans are 5 days at 20,000 a day, 10 million are 500). Each size gets a fresh database, migrated,
 * and seeded by `seed.ts`: the spans generated inside PostgreSQL, a partition at a time on
 * `--loaders` connections, each partition's indexes built and its statistics taken right after
 * its rows; the traces' and sessions' time bounds (trace_bounds, session_bounds: what ingest
 * writes with the spans) beside them. The schema and indexes are the migrations' own.
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
import os from "node:os";
import postgres from "postgres";
import { migrateDatabase, openDatabase, rawQuery, type Database } from "@/server/db";
import { traceSearchQuery } from "@/server/tracing";
import { queryTracePage } from "@/server/tracing/query/run-query";
import { parseWindowing } from "@/server/tracing/query/windowing";
import { loadTraces } from "@/server/tracing/store/read-spans";
import { loadAverage, log, machine } from "../lib/benchmark";
import { RUNS_PER_SESSION, seed } from "./seed";

const LOCAL_POSTGRES = "postgres://postgres@127.0.0.1:5432/test";
const DAY_MS = 86_400_000;

interface Options {
  sizes: number[];
  perDay: number;
  projects: number;
  rounds: number;
  loaders: number;
  keep: boolean;
}

function parseOptions(argv: string[]): Options {
  const out: Options = {
    sizes: [100_000, 10_000_000],
    perDay: 20_000,
    projects: 20,
    rounds: 7,
    loaders: os.availableParallelism(),
    keep: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split("=", 2);
    const value = () => inline ?? argv[++i];
    if (flag === "--sizes") out.sizes = value().split(",").map(Number);
    else if (flag === "--per-day") out.perDay = Number(value());
    else if (flag === "--projects") out.projects = Number(value());
    else if (flag === "--rounds") out.rounds = Number(value());
    else if (flag === "--loaders") out.loaders = Number(value());
    else if (flag === "--keep") out.keep = true;
    else throw new Error(`Unknown option ${flag}; known: --sizes, --per-day, --projects, --rounds, --loaders, --keep`);
  }
  if (out.sizes.length !== 2 || out.sizes.some((s) => !(s > 0))) throw new Error("--sizes takes two span counts");
  return out;
}

const uuidOf = (kind: number, n: number) => {
  const hex = (kind * 1e12 + n).toString(16).padStart(32, "0");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};

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
        const shape = { perDay: options.perDay, projects, end };
        const seeded = await seed(handle.db, url.toString(), shape, size, options.loaders);
        log(
          `seeded in ${seeded.seconds} s (load ${seeded.load_seconds}, indexes ${seeded.index_seconds}, analyze ${seeded.analyze_seconds})`,
        );
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
