/**
 * evaluation-claims (issue 38): what one claim of the evaluation worker costs as runs that wait
 * (review queues with people's pending cells, live runs between ticks) pile up in other projects.
 *
 * One project holds a running run with `--due` queued due cells; another holds N waiting runs
 * (each a queue run with one scenario of three pending cells), N stepping through `--waiting`
 * (default 0,100,1000,10000). At each step the tables are analyzed (as autovacuum would) and
 * `--claims` claims of 10 cells are timed, each claimed batch put back in the queue untimed. The
 * claim reads every running run's due and leased cells by index (claim-order.ts), so its cost
 * grows with the waiting runs; none of them ever takes a place.
 *
 *   npm run bench -- evaluation-claims [--waiting 0,100,1000,10000] [--claims 200] [--due 1000]
 *
 * Uses DATABASE_URL, or the local server at postgres://postgres@127.0.0.1:5432/test (a fresh
 * database, dropped afterwards).
 */
import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { createAccount } from "@/server/auth";
import { PROJECT_SETUPS } from "@/server/boot";
import { migrateDatabase, openDatabase, rawQuery, type Database } from "@/server/db";
import { claimCells } from "@/server/evaluations/execution/claim-cells";
import { loadAverage, log, machine, parseFlags } from "../lib/benchmark";

const LOCAL_POSTGRES = "postgres://postgres@127.0.0.1:5432/test";

export async function run(argv: string[]): Promise<Record<string, unknown>> {
  const flags = parseFlags(argv);
  const steps = String(flags.waiting ?? "0,100,1000,10000")
    .split(",")
    .map(Number);
  const claims = Number(flags.claims ?? 200);
  const due = Number(flags.due ?? 1000);
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
    const db = handle.db;
    const busy = await createAccount(db, PROJECT_SETUPS, { email: "busy@claims.local", projectName: "Busy" });
    const plain = await createAccount(db, PROJECT_SETUPS, { email: "plain@claims.local", projectName: "Plain" });
    const plainRun = await insertRun(db, plain.project.id, false);
    await rawQuery(
      db,
      `with s as (
         insert into evaluation_scenarios (id, project_id, run_id, status)
         select gen_random_uuid(), $1::uuid, $2::uuid, 'running' from generate_series(1, $3::int) returning id)
       insert into evaluation_results (id, project_id, run_id, scenario_id, step_key, status, due_at)
       select gen_random_uuid(), $1::uuid, $2::uuid, s.id, 'invocation', 'queued', now() - interval '1 minute' from s`,
      [plain.project.id, plainRun, due],
    );
    let waiting = 0;
    const results: Record<string, unknown>[] = [];
    for (const target of steps) {
      if (target > waiting) {
        log(`adding ${target - waiting} waiting runs`);
        await insertWaitingRuns(db, busy.project.id, target - waiting);
        waiting = target;
      }
      await rawQuery(db, "analyze evaluation_runs, evaluation_scenarios, evaluation_results");
      const times: number[] = [];
      let cells = 0;
      for (let i = 0; i < claims; i++) {
        const started = performance.now();
        const claimed = await claimCells(db, 10, 30_000);
        times.push(performance.now() - started);
        cells += claimed.length;
        if (claimed.some((c) => c.run.id !== plainRun)) throw new Error("a waiting run took a place in the claim");
        await rawQuery(
          db,
          `update evaluation_results set status = 'queued', lease_until = null, lease_token = null
           where id = any($1::uuid[])`,
          [`{${claimed.map((c) => c.cell.id).join(",")}}`],
        );
      }
      times.sort((a, b) => a - b);
      const at = (q: number) => round(times[Math.min(times.length - 1, Math.floor(q * times.length))]);
      const entry = {
        waiting_runs: waiting,
        claims,
        cells_per_claim: cells / claims,
        ms_per_claim: { mean: round(times.reduce((a, b) => a + b, 0) / times.length), p50: at(0.5), p95: at(0.95) },
      };
      log(JSON.stringify(entry));
      results.push(entry);
    }
    return { machine: machine(), load: { before: loadBefore, after: loadAverage() }, due_cells: due, results };
  } finally {
    await handle.close();
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end({ timeout: 5 });
  }
}

const round = (ms: number) => Math.round(ms * 100) / 100;

async function insertRun(db: Database, projectId: string, queue: boolean): Promise<string> {
  const [row] = await rawQuery<{ id: string }>(
    db,
    `insert into evaluation_runs (id, project_id, status, flags, data, started_at)
     values (gen_random_uuid(), $1::uuid, 'running', $2::jsonb, $3::jsonb, now()) returning id::text`,
    [
      projectId,
      JSON.stringify({ is_active: true, is_queue: queue }),
      JSON.stringify({ concurrency: { batch_size: 1000 } }),
    ],
  );
  return row.id;
}

/** `n` queue runs, each one scenario of three cells waiting for a person. */
async function insertWaitingRuns(db: Database, projectId: string, n: number): Promise<void> {
  await rawQuery(
    db,
    `with r as (
       insert into evaluation_runs (id, project_id, status, flags, started_at)
       select gen_random_uuid(), $1::uuid, 'running', '{"is_active": true, "is_queue": true}'::jsonb, now() - interval '1 day'
       from generate_series(1, $2::int) returning id
     ), s as (
       insert into evaluation_scenarios (id, project_id, run_id, status)
       select gen_random_uuid(), $1::uuid, r.id, 'pending' from r returning id, run_id
     )
     insert into evaluation_results (id, project_id, run_id, scenario_id, step_key, repeat_idx, status)
     select gen_random_uuid(), $1::uuid, s.run_id, s.id, 'human', k, 'pending' from s, generate_series(0, 2) k`,
    [projectId, n],
  );
}
