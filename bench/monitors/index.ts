/**
 * monitors (issue 43): what evaluating 1,000 monitors across 50 projects costs the worker per
 * minute, on PostgreSQL. The goal: under 1 s per minute on the two-core machine.
 *
 * Seeds a week of roll-ups (`span_rollups` at the three grains tracing's ingest writes: 10
 * agents per project, runs with errors, latency histograms, tokens and costs) for `--projects`
 * projects, and `--monitors` monitors spread over them: error rate, latency p90, ttft p90, cost,
 * tokens and run count, for the project or one agent, over 5 minutes to 7 days. Then the clock
 * moves minute by minute (`--minutes`, default 5) and every due monitor is evaluated by the
 * worker's own pass (checkDueMonitors, its batch of MONITOR_BATCH) until none is due: the figure is the
 * wall time of that per minute, and the process's CPU time for it. A last step leaves out ten
 * minutes (no worker) and times the catch-up, which evaluates each missed minute.
 *
 *   npm run bench -- monitors [--projects 50] [--monitors 1000] [--minutes 5]
 *
 * Uses DATABASE_URL, or the local server at postgres://postgres@127.0.0.1:5432/test (a fresh
 * database, dropped afterwards).
 */
import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { createAccount } from "@/server/auth";
import { PROJECT_SETUPS } from "@/server/boot";
import type { AppContext } from "@/server/core/app-context";
import { loadConfig } from "@/server/core/config";
import { migrateDatabase, openDatabase, rawQuery } from "@/server/db";
import { SecretBox } from "@/server/encryption";
import { createMonitor, checkDueMonitors, MONITOR_BATCH, type MonitorInput } from "@/server/monitors";
import { loadAverage, log, machine, parseFlags } from "../lib/benchmark";

const LOCAL_POSTGRES = "postgres://postgres@127.0.0.1:5432/test";
const MINUTE = 60_000;

const METRICS: MonitorInput["metric"][] = [
  { name: "error_rate" },
  { name: "latency_p90" },
  { name: "ttft_p90" },
  { name: "cost" },
  { name: "tokens" },
  { name: "count" },
];
const THRESHOLDS: Record<string, number> = {
  error_rate: 0.06,
  latency_p90: 2_000,
  ttft_p90: 700,
  cost: 5,
  tokens: 50_000,
  count: 10,
};
const WINDOWS = [300, 900, 3_600, 6 * 3_600, 86_400, 7 * 86_400];

export async function run(argv: string[]): Promise<Record<string, unknown>> {
  const flags = parseFlags(argv);
  const projects = Number(flags.projects ?? 50);
  const monitorCount = Number(flags.monitors ?? 1000);
  const minutes = Number(flags.minutes ?? 5);
  const base = process.env.DATABASE_URL || LOCAL_POSTGRES;
  const name = `bench_${randomBytes(6).toString("hex")}`;
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ url: url.toString() });
  const loadBefore = loadAverage();
  try {
    await migrateDatabase(handle);
    let now = new Date(Math.floor(Date.now() / MINUTE) * MINUTE + 5_000);
    const app: AppContext = {
      db: handle.db,
      dbKind: handle.kind,
      config: loadConfig({}),
      secrets: new SecretBox(randomBytes(32)),
      projectSetups: PROJECT_SETUPS,
      now: () => new Date(now),
    };
    log(`creating ${projects} projects`);
    const accounts = [];
    for (let p = 0; p < projects; p++)
      accounts.push(
        await createAccount(handle.db, PROJECT_SETUPS, { email: `m${p}@monitors.local`, projectName: `P${p}` }),
      );
    log("seeding a week of quarter-hour roll-ups");
    const rollups = await seedRollups(
      handle.db,
      accounts.map((a) => a.project.id),
      now,
    );
    log(`creating ${monitorCount} monitors`);
    for (let i = 0; i < monitorCount; i++) {
      const account = accounts[i % projects];
      const metric = METRICS[i % METRICS.length];
      const agentScoped = i % 2 === 1;
      await createMonitor(
        app,
        { projectId: account.project.id, userId: account.user.id, role: "owner" },
        {
          name: `monitor ${i}`,
          metric,
          ...(agentScoped ? { scope: { kind: "agent" as const, value: `agent-${i % 10}` } } : {}),
          window_seconds: WINDOWS[Math.floor(i / METRICS.length) % WINDOWS.length],
          operator: metric.name === "count" ? "below" : "above",
          threshold: THRESHOLDS[metric.name] * (agentScoped ? 0.1 : 1),
          min_samples: 3,
          renotify_seconds: 3_600,
        },
      );
    }
    await rawQuery(handle.db, "analyze");

    const perMinute: { evaluated: number; wall_ms: number; cpu_ms: number; alerts: number }[] = [];
    const step = async () => {
      const alertsBefore = await countAlerts(handle.db);
      const cpu = process.cpuUsage();
      const started = performance.now();
      let evaluated = 0;
      for (let n = await checkDueMonitors(app, MONITOR_BATCH); n > 0; n = await checkDueMonitors(app, MONITOR_BATCH))
        evaluated += n;
      const wall = performance.now() - started;
      const used = process.cpuUsage(cpu);
      return {
        evaluated,
        wall_ms: Math.round(wall),
        cpu_ms: Math.round((used.user + used.system) / 1000),
        alerts: (await countAlerts(handle.db)) - alertsBefore,
      };
    };
    // The first minute settles states (most monitors fire or go ok at once): timed, but apart.
    now = new Date(now.getTime() + MINUTE);
    const first = await step();
    log(`first minute: ${JSON.stringify(first)}`);
    for (let m = 0; m < minutes; m++) {
      now = new Date(now.getTime() + MINUTE);
      const result = await step();
      log(`minute ${m + 1}: ${JSON.stringify(result)}`);
      perMinute.push(result);
    }
    now = new Date(now.getTime() + 10 * MINUTE);
    const catchUp = await step();
    log(`after 10 minutes without a worker: ${JSON.stringify(catchUp)}`);
    const walls = perMinute.map((r) => r.wall_ms).sort((a, b) => a - b);
    return {
      benchmark: "monitors",
      machine: machine(),
      load_average: { before: loadBefore, after: loadAverage() },
      projects,
      monitors: monitorCount,
      rollup_rows: rollups,
      worker_ms_per_minute: { median: walls[Math.floor(walls.length / 2)], max: walls.at(-1) },
      goal_ms_per_minute: 1_000,
      first_minute: first,
      minutes: perMinute,
      catch_up_after_10_minutes: catchUp,
    };
  } finally {
    await handle.close();
    await admin.unsafe(`drop database ${name} with (force)`);
    await admin.end();
  }
}

async function countAlerts(db: AppContext["db"]): Promise<number> {
  const [row] = await rawQuery<{ n: string }>(db, "select count(*)::text as n from monitor_alerts");
  return Number(row.n);
}

/**
 * A week of quarter hours up to `now` for each project: 10 agents, a root row per agent and
 * bucket with 1 to 8 runs, some errors, a latency and ttft histogram, tokens and costs, and the
 * hour and day rows that sum them (what the ingest writes).
 */
async function seedRollups(db: AppContext["db"], projectIds: string[], now: Date): Promise<number> {
  const end = new Date(Math.floor(now.getTime() / (15 * MINUTE)) * 15 * MINUTE);
  let rows = 0;
  for (const projectId of projectIds) {
    const [r] = await rawQuery<{ n: string }>(
      db,
      `with ins as (
        insert into span_rollups (project_id, grain, bucket, root, trace_type, agent, model, provider, environment,
          revision, api_key, user_id, spans, errors, duration_ms, latency, ttft_count, ttft_ms, ttft, tokens, costs,
          run_tokens, run_costs)
        select $1::uuid, 'quarter', b, true, 'invocation', 'agent-' || a, 'gpt-5-mini', 'openai', 'production', '', '', '',
          n, (n * e)::bigint, n * 900.0, jsonb_build_object('343', n - 1, '380', 1), n, n * 400.0,
          jsonb_build_object('300', n), jsonb_build_object('total', n * 1200), jsonb_build_object('total', n * 0.01),
          jsonb_build_object('total', n * 1200), jsonb_build_object('total', n * 0.01)
        from generate_series($2::timestamptz - interval '7 days', $2::timestamptz, interval '15 minutes') as b,
          generate_series(0, 9) as a,
          lateral (select 1 + floor(random() * 8)::int as n, case when random() < 0.1 then 0.5 else 0 end as e) as x
        returning 1)
      select count(*)::text as n from ins`,
      [projectId, end.toISOString()],
    );
    rows += Number(r.n);
  }
  // The coarser grains, as the ingest keeps them: each the sum of its quarter hours.
  for (const [grain, unit] of [
    ["hour", "hour"],
    ["day", "day"],
  ]) {
    const [r] = await rawQuery<{ n: string }>(
      db,
      `with ins as (
        insert into span_rollups
        select project_id, '${grain}', date_trunc('${unit}', bucket at time zone 'UTC') at time zone 'UTC', root, trace_type,
          agent, model, provider, environment, revision, api_key, user_id, sum(spans), sum(errors), sum(duration_ms),
          rollup_map_sum(latency, 1), sum(ttft_count), sum(ttft_ms), rollup_map_sum(ttft, 1), rollup_map_sum(tokens, 1),
          rollup_map_sum(costs, 1), rollup_map_sum(run_tokens, 1), rollup_map_sum(run_costs, 1)
        from span_rollups where grain = 'quarter'
        group by 1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12
        returning 1)
      select count(*)::text as n from ins`,
    );
    rows += Number(r.n);
  }
  return rows;
}
