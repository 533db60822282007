/**
 * ingest: spans per second from request to queryable, through `POST /api/tracing/spans/ingest`
 * on `next start` with PostgreSQL and 1 or 2 ingest workers (`npm run worker` processes), next to
 * a raw `COPY` of the same spans into the same table on the same database server (the physical
 * limit here); then ingest-to-query latency p50/p99 at half the sustained rate.
 *
 *   npm run bench -- ingest [--spans 60000] [--batch 100] [--connections 8] [--latency-seconds 10] [--rebuild | --no-rebuild]
 *
 * Throughput: every request body is built before the clock starts; the clock stops when the last
 * span is in `spans` (the ingest queue is empty). Latency: requests of the same size at half the
 * sustained rate, on a fixed schedule; a poller on its own connection looks for each request's
 * first trace every 5 ms, and the time from sending to seeing it is that request's latency.
 * Uses DATABASE_URL, or the local server at postgres://postgres@127.0.0.1:5432/test; fresh
 * databases are created for the run and dropped afterwards.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { loadAverage, log, machine } from "../lib/benchmark";
import { ensureBuild, ROOT, startNextServer, type NextServer } from "../lib/next-server";
import { openDatabase, migrateDatabase } from "@/server/db";
import { ensurePartitions } from "@/server/tracing/store/partitions";
import { parseTracingRequest } from "@/server/tracing/parse-request";
import type { SpanRecord } from "@/server/tracing/span-record";

const LOCAL_POSTGRES = "postgres://postgres@127.0.0.1:5432/test";

interface Options {
  spans: number;
  batch: number;
  connections: number;
  latencySeconds: number;
  rebuild?: boolean;
}

function parseOptions(argv: string[]): Options {
  const out: Options = { spans: 60_000, batch: 100, connections: 8, latencySeconds: 10 };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split("=", 2);
    const value = () => Number(inline ?? argv[++i]);
    if (flag === "--spans") out.spans = value();
    else if (flag === "--batch") out.batch = value();
    else if (flag === "--connections") out.connections = value();
    else if (flag === "--latency-seconds") out.latencySeconds = value();
    else if (flag === "--rebuild") out.rebuild = true;
    else if (flag === "--no-rebuild") out.rebuild = false;
    else
      throw new Error(
        `Unknown option ${flag}; known: --spans, --batch, --connections, --latency-seconds, --rebuild, --no-rebuild`,
      );
  }
  return out;
}

const hex = (bytes: number) => randomBytes(bytes).toString("hex");

/** One agent-like trace: a root, turns and model calls with GenAI attributes and small messages. */
function traceSpans(size: number, startMs: number): Record<string, unknown>[] {
  const traceId = hex(16);
  const root = hex(8);
  const spans: Record<string, unknown>[] = [
    {
      trace_id: traceId,
      span_id: root,
      span_name: "invoke_agent bench",
      start_time: new Date(startMs).toISOString(),
      end_time: new Date(startMs + 900).toISOString(),
      attributes: {
        "gen_ai.operation.name": "invoke_agent",
        "gen_ai.agent.name": "bench",
        "ag.session.id": `s-${traceId.slice(0, 6)}`,
      },
    },
  ];
  for (let i = 1; i < size; i++) {
    spans.push({
      trace_id: traceId,
      span_id: hex(8),
      parent_id: root,
      span_name: "chat gpt-5-mini",
      start_time: new Date(startMs + i * 10).toISOString(),
      end_time: new Date(startMs + i * 10 + 80).toISOString(),
      attributes: {
        "gen_ai.operation.name": "chat",
        "gen_ai.provider.name": "openai",
        "gen_ai.request.model": "gpt-5-mini",
        "gen_ai.usage.input_tokens": 120 + i,
        "gen_ai.usage.output_tokens": 30 + i,
        "gen_ai.input.messages": JSON.stringify([
          { role: "user", parts: [{ type: "text", content: `question ${i} about the weather in Paris today` }] },
        ]),
        "gen_ai.output.messages": JSON.stringify([
          {
            role: "assistant",
            parts: [{ type: "text", content: `answer ${i}: sunny, 21 degrees, light wind from the west` }],
          },
        ]),
      },
    });
  }
  return spans;
}

function requestBodies(total: number, batch: number): string[] {
  const bodies: string[] = [];
  const now = Date.now();
  for (let sent = 0; sent < total; sent += batch) {
    const spans: Record<string, unknown>[] = [];
    while (spans.length < batch)
      spans.push(...traceSpans(Math.min(10, batch - spans.length), now - Math.floor(Math.random() * 3_600_000)));
    bodies.push(JSON.stringify({ spans }));
  }
  return bodies;
}

// The server and its worker processes must open the same sealed secrets: one key for the run.
const SECRET_KEY = randomBytes(32).toString("base64");

function startWorkers(count: number, databaseUrl: string): ChildProcess[] {
  return Array.from({ length: count }, () => {
    const worker = spawn(process.execPath, ["--import", "tsx", "server/boot/worker-main.ts"], {
      cwd: ROOT,
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        APP_SECRET_KEY: SECRET_KEY,
        LOG_LEVEL: "warn",
        NODE_ENV: "production",
      },
      stdio: ["ignore", "ignore", process.stderr],
    });
    // A worker that dies on its own would leave the benchmark waiting for spans nobody stores.
    worker.once("exit", (code, signal) => {
      if (signal === null && code !== 0) {
        log(`a worker exited with code ${code}; stopping the benchmark`);
        process.exit(1);
      }
    });
    return worker;
  });
}

async function stopWorkers(workers: ChildProcess[]): Promise<void> {
  await Promise.all(
    workers.map(
      (w) =>
        new Promise<void>((resolve) => {
          if (w.exitCode !== null) return resolve();
          w.once("exit", () => resolve());
          w.kill("SIGTERM");
        }),
    ),
  );
}

async function post(server: NextServer, body: string): Promise<number> {
  for (;;) {
    const res = await fetch(`${server.baseUrl}/api/tracing/spans/ingest`, {
      method: "POST",
      headers: { authorization: `ApiKey ${server.apiKey}`, "content-type": "application/json" },
      body,
    });
    await res.arrayBuffer();
    if (res.status === 202) return 202;
    if (res.status !== 429) throw new Error(`ingest answered ${res.status}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function throughput(server: NextServer, sql: postgres.Sql, workers: number, options: Options) {
  await sql`truncate spans`;
  const bodies = requestBodies(options.spans, options.batch);
  const procs = startWorkers(workers, server.databaseUrl!);
  try {
    await new Promise((r) => setTimeout(r, 3000)); // workers boot (tsx) before the clock starts
    log(`throughput with ${workers} worker(s): ${options.spans} spans in ${bodies.length} requests`);
    const started = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: options.connections }, async () => {
        while (next < bodies.length) await post(server, bodies[next++]);
      }),
    );
    const acknowledged = performance.now();
    for (;;) {
      const [{ n }] = await sql<{ n: string }[]>`select count(*)::text as n from span_ingest`;
      if (n === "0") break;
      await new Promise((r) => setTimeout(r, 10));
    }
    const done = performance.now();
    const [{ stored }] = await sql<{ stored: string }[]>`select count(*)::text as stored from spans`;
    if (Number(stored) !== options.spans) throw new Error(`expected ${options.spans} spans stored, found ${stored}`);
    return {
      workers,
      spans: options.spans,
      spans_per_sec: Math.round((options.spans / (done - started)) * 1000),
      acknowledged_spans_per_sec: Math.round((options.spans / (acknowledged - started)) * 1000),
      seconds: Number(((done - started) / 1000).toFixed(2)),
    };
  } finally {
    await stopWorkers(procs);
  }
}

/** The same spans, normalised as the server does, written with one COPY into `spans` of a fresh migrated database. */
async function rawCopy(baseUrl: string, options: Options) {
  const name = `bench_copy_${hex(5)}`;
  const admin = postgres(baseUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ url: url.toString(), maxConnections: 2 });
  const sql = postgres(url.toString(), { max: 1, onnotice: () => {} });
  try {
    await migrateDatabase(handle);
    const records: SpanRecord[] = requestBodies(options.spans, options.batch).flatMap(
      (b) => parseTracingRequest(JSON.parse(b)).spans,
    );
    await ensurePartitions(
      handle.db,
      handle.db,
      "postgres",
      records.map((r) => Date.parse(r.start_time)),
      "week",
    );
    const projectId = "01900000-0000-7000-8000-000000000001";
    const esc = (v: unknown) =>
      v === null || v === undefined
        ? "\\N"
        : String(v).replace(/\\/g, "\\\\").replace(/\t/g, "\\t").replace(/\n/g, "\\n").replace(/\r/g, "\\r");
    const json = (v: unknown) => (v === null || v === undefined ? "\\N" : esc(JSON.stringify(v)));
    const lines = records.map((r) =>
      [
        projectId,
        r.trace_id,
        r.span_id,
        r.parent_id,
        r.start_time,
        r.end_time,
        r.trace_type,
        r.span_type,
        r.span_kind,
        r.span_name,
        r.status_code,
        r.status_message,
        r.session_id,
        r.user_id,
        r.agent_id,
      ]
        .map(esc)
        .concat([
          json(r.attributes),
          json(r.references),
          json(r.links),
          json(r.events),
          json(r.exception),
          json(r.resource),
        ])
        .join("\t"),
    );
    const text = lines.join("\n") + "\n";
    log(`raw COPY of ${records.length} spans`);
    const started = performance.now();
    const stream =
      await sql`copy spans (project_id, trace_id, span_id, parent_id, start_time, end_time, trace_type, span_type, span_kind, span_name, status_code, status_message, session_id, user_id, agent_id, attributes, "references", links, events, exception, resource) from stdin`.writable();
    await new Promise<void>((resolve, reject) => {
      stream.on("error", reject);
      stream.on("finish", resolve);
      const chunk = 1 << 20;
      for (let i = 0; i < text.length; i += chunk) stream.write(text.slice(i, i + chunk));
      stream.end();
    });
    const seconds = (performance.now() - started) / 1000;
    return {
      spans: records.length,
      spans_per_sec: Math.round(records.length / seconds),
      seconds: Number(seconds.toFixed(2)),
    };
  } finally {
    await sql.end({ timeout: 5 });
    await handle.close();
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end({ timeout: 5 });
  }
}

/**
 * Requests of the same size as the throughput run (`batch` spans in traces of 10), sent on a fixed
 * schedule at `spansPerSec`; a request counts as visible when its first trace is in `spans`.
 */
async function latency(
  server: NextServer,
  sql: postgres.Sql,
  projectId: string,
  workers: number,
  spansPerSec: number,
  seconds: number,
  batch: number,
) {
  await sql`truncate spans`;
  const procs = startWorkers(workers, server.databaseUrl!);
  try {
    await new Promise((r) => setTimeout(r, 3000));
    const intervalMs = (batch / spansPerSec) * 1000;
    const count = Math.max(20, Math.floor((seconds * 1000) / intervalMs));
    log(
      `latency with ${workers} worker(s): ${count} requests of ${batch} spans, one every ${intervalMs.toFixed(1)} ms (${Math.round(spansPerSec)} spans/s)`,
    );
    const sentAt = new Map<string, number>();
    const latencies: number[] = [];
    let polling = true;
    const start = performance.now() + 100;
    const giveUpAt = () => performance.now() > start + seconds * 1000 + 30_000;
    const dashed = (p: string) =>
      `${p.slice(0, 8)}-${p.slice(8, 12)}-${p.slice(12, 16)}-${p.slice(16, 20)}-${p.slice(20)}`;
    // Looks for every pending trace every 5 ms through the primary key (project, trace).
    const poller = (async () => {
      while ((polling || sentAt.size > 0) && !giveUpAt()) {
        const pending = [...sentAt.keys()];
        if (pending.length > 0) {
          const rows = await sql<{ t: string }[]>`select distinct replace(s.trace_id::text, '-', '') as t
            from unnest(${sql.array(pending.map(dashed))}::uuid[]) as p(id) join spans s on s.project_id = ${projectId}::uuid and s.trace_id = p.id`;
          const now = performance.now();
          for (const { t } of rows) {
            const sent = sentAt.get(t);
            if (sent !== undefined) {
              latencies.push(now - sent);
              sentAt.delete(t);
            }
          }
        }
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    const inFlight: Promise<number>[] = [];
    for (let i = 0; i < count; i++) {
      const due = start + i * intervalMs;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const spans: Record<string, unknown>[] = [];
      while (spans.length < batch) spans.push(...traceSpans(Math.min(10, batch - spans.length), Date.now()));
      sentAt.set(spans[0].trace_id as string, performance.now());
      inFlight.push(post(server, JSON.stringify({ spans })));
    }
    try {
      await Promise.all(inFlight);
    } finally {
      polling = false;
      await poller;
    }
    if (latencies.length === 0) throw new Error("no request became visible");
    latencies.sort((a, b) => a - b);
    const pct = (p: number) =>
      Number(latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))].toFixed(1));
    return {
      workers,
      spans_per_sec_offered: Math.round(spansPerSec),
      requests: count,
      never_visible: sentAt.size,
      latency_ms: { p50: pct(50), p90: pct(90), p99: pct(99), max: pct(100) },
    };
  } finally {
    await stopWorkers(procs);
  }
}

export async function run(argv: string[]): Promise<Record<string, unknown>> {
  const options = parseOptions(argv);
  const loadBefore = loadAverage();
  const baseUrl = process.env.DATABASE_URL || LOCAL_POSTGRES;
  await ensureBuild({ rebuild: options.rebuild });
  const copy = await rawCopy(baseUrl, options);
  log(`raw COPY: ${copy.spans_per_sec} spans/s`);
  const server = await startNextServer({
    databaseUrl: baseUrl,
    env: {
      WORKERS: "off",
      APP_SECRET_KEY: SECRET_KEY,
      LOG_LEVEL: "warn",
      TRACING_MAX_BACKLOG_SPANS: String(Math.max(options.spans * 2, 500_000)),
    },
  });
  const sql = postgres(server.databaseUrl!, { max: 2, onnotice: () => {} });
  try {
    const one = await throughput(server, sql, 1, options);
    log(`1 worker: ${one.spans_per_sec} spans/s`);
    const two = await throughput(server, sql, 2, options);
    log(`2 workers: ${two.spans_per_sec} spans/s`);
    const [{ id: projectId }] = await sql<{ id: string }[]>`select id::text as id from projects where is_default`;
    const latencyOne = await latency(
      server,
      sql,
      projectId,
      1,
      one.spans_per_sec / 2,
      options.latencySeconds,
      options.batch,
    );
    const latencyTwo = await latency(
      server,
      sql,
      projectId,
      2,
      two.spans_per_sec / 2,
      options.latencySeconds,
      options.batch,
    );
    const ratio = (x: number) => Number((x / copy.spans_per_sec).toFixed(3));
    return {
      benchmark: "ingest",
      database: server.database,
      options: { spans: options.spans, spans_per_request: options.batch, connections: options.connections },
      raw_copy: copy,
      ingest: {
        workers_1: { ...one, ratio_to_raw_copy: ratio(one.spans_per_sec) },
        workers_2: { ...two, ratio_to_raw_copy: ratio(two.spans_per_sec) },
      },
      latency_at_half_rate: { workers_1: latencyOne, workers_2: latencyTwo },
      targets: {
        at_least_half_of_raw_copy: Math.max(one.spans_per_sec, two.spans_per_sec) >= copy.spans_per_sec / 2,
        p99_under_1s_at_half_rate: latencyOne.latency_ms.p99 < 1000 && latencyTwo.latency_ms.p99 < 1000,
      },
      machine: { ...machine(), load_average_before: loadBefore, load_average_after: loadAverage() },
    };
  } finally {
    await sql.end({ timeout: 5 });
    await server.stop();
  }
}
