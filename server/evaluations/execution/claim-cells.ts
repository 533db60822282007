import { inArray } from "drizzle-orm";
import { newId } from "@/server/core/ids";
import { rawQuery, type Database, type Executor } from "@/server/db";
import { evaluationRuns } from "@/server/db/schema";
import { DEFAULT_BATCH_SIZE, readRunData } from "../model/run-data";
import type { EvaluationRunRow } from "../model/rows";
import { runsToServe } from "./claim-order";

/** What a worker needs of a cell it holds: which one, where it sits, and the row's inputs. */
export interface WorkCell {
  id: string;
  runId: string;
  scenarioId: string;
  stepKey: string;
  repeatIdx: number;
  /** Attempts so far, this one included. */
  attempts: number;
  inputs: Record<string, unknown>;
}

export interface ClaimedCell {
  cell: WorkCell;
  run: EvaluationRunRow;
  token: string;
}

export interface CellRow {
  id: string;
  run_id: string;
  scenario_id: string;
  step_key: string;
  repeat_idx: number;
  attempts: number;
  inputs: Record<string, unknown> | null;
  run_updated_ms: number | null;
}

/** What a claim returns of each cell it leased (`r` is the cell). */
export const CLAIMED_COLUMNS = `r.id::text, r.run_id::text, r.scenario_id::text, r.step_key, r.repeat_idx, r.attempts,
  (select s.inputs from evaluation_scenarios s where s.id = r.scenario_id) as inputs,
  (select (extract(epoch from u.updated_at) * 1000)::float8 from evaluation_runs u where u.id = r.run_id) as run_updated_ms`;

/**
 * CTEs `expired`, `ready` and `due`: at most `limit` cells of the run to lease next, locked (SKIP
 * LOCKED), `except` left out: first cells whose lease ran out (their worker died), then queued
 * cells whose time has come, in due order. Two ranges of `evaluation_results_work_idx` (run,
 * status, due_at, id), each read in order and stopped at the limit: one condition with an OR
 * between the two made every claim and record read and sort all of the run's cells.
 *
 * Their limit is an expression, so the planner guesses `due` at a tenth of the range. An update
 * joined to it (`from due where r.id = due.id`) then hashed `due` and scanned the whole table,
 * every run's cells, once the table's statistics were real (the record statement took 1.7 ms
 * instead of 0.4 in a run of 9,000 cells). The record takes its one cell as a scalar
 * (`r.id = (select id from due limit 1)`), a primary-key lookup whatever the statistics; a claim
 * takes `r.id = any(array(select id from due))`, looked up in the key once the statistics are
 * real (on a new table's empty ones it scans, briefly: autovacuum analyzes it within a minute).
 */
export function dueCells({ run, now, limit, except }: { run: string; now: string; limit: string; except?: string }) {
  const other = except ? `and id <> ${except}::uuid` : "";
  return `expired as (
  select id from evaluation_results
  where run_id = ${run}::uuid and status = 'running' and lease_until < ${now}::timestamptz ${other}
  order by id limit ${limit} for update skip locked
), ready as (
  select id from evaluation_results
  where run_id = ${run}::uuid and status = 'queued' and due_at <= ${now}::timestamptz ${other}
  order by due_at, id limit greatest(0, ${limit} - (select count(*) from expired)) for update skip locked
), due as (
  select id from expired union all select id from ready
)`;
}

/**
 * One statement (the hot path is a handful of round trips per cell, written by hand because
 * building SQL per call cost more than running it): leases at most `min(limit, batch_size −
 * cells of the run leased now)` due cells of a running, active, open run (a cell whose lease ran
 * out, its worker dead, is due again), counts the attempt, and returns each with its scenario's
 * inputs. $1 run, $2 now, $3 lease end, $4 token, $5 limit, $6 batch size.
 */
const CLAIM = `
with room as (
  select least($5::int, $6::int - (select count(*)::int from evaluation_results
    where run_id = $1::uuid and status = 'running' and lease_until >= $2::timestamptz)) as n
  where exists (select 1 from evaluation_runs where id = $1::uuid and status = 'running'
    and flags @> '{"is_active": true}' and not flags @> '{"is_closed": true}')
), ${dueCells({ run: "$1", now: "$2", limit: "greatest(0, coalesce((select n from room), 0))" })}
update evaluation_results r
set status = 'running', lease_until = $3::timestamptz, lease_token = $4::uuid, attempts = r.attempts + 1,
  updated_at = $2::timestamptz
where r.id = any(array(select id from due))
returning ${CLAIMED_COLUMNS}`;

export const toCell = (row: CellRow): WorkCell => ({
  id: row.id,
  runId: row.run_id,
  scenarioId: row.scenario_id,
  stepKey: row.step_key,
  repeatIdx: row.repeat_idx,
  attempts: row.attempts,
  inputs: row.inputs ?? {},
});

/** Leases up to `limit` due cells of one run under `token` (see CLAIM). */
export async function leaseCells(
  db: Executor,
  run: EvaluationRunRow,
  limit: number,
  token: string,
  leaseMs: number,
  now: Date,
): Promise<{ cells: WorkCell[]; runUpdatedMs?: number }> {
  const batchSize = readRunData(run.data).concurrency?.batch_size ?? DEFAULT_BATCH_SIZE;
  const rows = await rawQuery<CellRow>(db, CLAIM, [
    run.id,
    now.toISOString(),
    new Date(now.getTime() + leaseMs).toISOString(),
    token,
    limit,
    batchSize,
  ]);
  const updated = rows[0]?.run_updated_ms;
  return {
    cells: rows.map(toCell),
    runUpdatedMs: updated === null || updated === undefined ? undefined : Number(updated),
  };
}

/**
 * Claims up to `limit` due cells under a lease, fairly across projects and runs (claim-order.ts:
 * only runs with a due cell and room take part, the least served first). Each run gets an even
 * share of `limit` first, then what is left goes to the runs that filled their share, in the same
 * order. Run rows are locked with SKIP LOCKED while their cells are claimed, so two workers never
 * claim for one run at once and the run's `batch_size` (cells leased at once, across every
 * worker) holds exactly. Counting the attempt at the claim bounds the retries of a cell that
 * crashes its worker.
 */
export async function claimCells(
  db: Database,
  limit: number,
  leaseMs: number,
  now = new Date(),
): Promise<ClaimedCell[]> {
  if (limit <= 0) return [];
  // Read before the transaction (at read committed each statement reads afresh either way): an
  // idle poll is this one round trip, no BEGIN and COMMIT.
  const order = await runsToServe(db, limit, now);
  if (order.length === 0) return [];
  return db.transaction(async (tx) => {
    const locked = await tx
      .select()
      .from(evaluationRuns)
      .where(
        inArray(
          evaluationRuns.id,
          order.map((o) => o.id),
        ),
      )
      .for("update", { skipLocked: true });
    const byId = new Map(locked.map((run) => [run.id, run]));
    const runs = order.flatMap((o) => {
      const run = byId.get(o.id);
      return run ? [{ run, room: o.room }] : [];
    });
    const claimed: ClaimedCell[] = [];
    const lease = async (run: EvaluationRunRow, n: number) => {
      const token = newId();
      const { cells } = await leaseCells(tx, run, n, token, leaseMs, now);
      for (const cell of cells) claimed.push({ cell, run, token });
      return cells.length;
    };
    const share = Math.ceil(limit / Math.max(1, runs.length));
    const more: { run: EvaluationRunRow; room: number }[] = [];
    for (const { run, room } of runs) {
      const want = Math.min(share, room, limit - claimed.length);
      if (want <= 0) break;
      const got = await lease(run, want);
      if (got === want && room > got) more.push({ run, room: room - got });
    }
    for (const { run, room } of more) {
      if (claimed.length >= limit) break;
      await lease(run, Math.min(room, limit - claimed.length));
    }
    const served = [...new Set(claimed.map((c) => c.run.id))];
    if (served.length > 0)
      await tx.update(evaluationRuns).set({ servedAt: now }).where(inArray(evaluationRuns.id, served));
    return claimed;
  });
}

/**
 * Extends the leases of cells this worker still holds. A cell locked right now is being recorded
 * (its lease ends with that write), so it is skipped rather than waited for.
 */
export async function renewLeases(db: Database, tokens: string[], leaseMs: number, now = new Date()): Promise<void> {
  if (tokens.length === 0) return;
  await rawQuery(
    db,
    `update evaluation_results set lease_until = $2::timestamptz where id in (
       select id from evaluation_results where lease_token = any($1::uuid[]) and status = 'running'
       for update skip locked)`,
    [`{${tokens.join(",")}}`, new Date(now.getTime() + leaseMs).toISOString()],
  );
}
