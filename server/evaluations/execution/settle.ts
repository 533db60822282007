import { and, eq, inArray, sql } from "drizzle-orm";
import { newId } from "@/server/core/ids";
import { rawQuery, type Database, type Executor } from "@/server/db";
import { evaluationResults, evaluationRuns, evaluationScenarios } from "@/server/db/schema";
import { computeMetrics } from "../metrics/compute-metrics";
import { refreshMetrics, refreshTemporalMetrics } from "../metrics/refresh-metrics";
import { readRunData } from "../model/run-data";
import type { EvaluationRunRow } from "../model/rows";
import { takesPushedRows } from "./source-items";
import { emitRunEvent } from "./run-events";

const r = evaluationResults;
const OPEN = ["queued", "running"];

/** Status of a set of cells, as the reference implementation rolls it up: an error wins, then waiting people. */
async function rollup(tx: Executor, where: ReturnType<typeof and>): Promise<"open" | "errors" | "pending" | "success"> {
  const [row] = await tx
    .select({
      open: sql<number>`count(*) filter (where ${r.status} in ('queued', 'running'))`.mapWith(Number),
      failed: sql<number>`count(*) filter (where ${r.status} in ('failure', 'errors'))`.mapWith(Number),
      pending: sql<number>`count(*) filter (where ${r.status} = 'pending')`.mapWith(Number),
    })
    .from(r)
    .where(where);
  if (row.open > 0) return "open";
  if (row.failed > 0) return "errors";
  return row.pending > 0 ? "pending" : "success";
}

/** What settling reads of a cell. */
export interface SettleCell {
  step_key: string;
  status: string;
  outputs: unknown;
  latency_ms: number | null;
  tokens: number | null;
  cost_usd: number | null;
}

/**
 * The reference implementation's rollup over cell statuses: open while one runs, then an error
 * wins, then waiting people.
 */
function rollupOf(statuses: string[]): "open" | "errors" | "pending" | "success" {
  if (statuses.some((s) => s === "queued" || s === "running")) return "open";
  if (statuses.some((s) => s === "failure" || s === "errors")) return "errors";
  return statuses.includes("pending") ? "pending" : "success";
}

/** Whether a scenario's cells let it settle: none of them is still to run. */
export function isSettleable(cells: SettleCell[]): boolean {
  return rollupOf(cells.map((c) => c.status)) !== "open";
}

/**
 * When a scenario has no cell left to run: its status and its (variational) metrics, from one
 * read of its cells. This runs once per cell that may end a scenario, so it is two hand-written
 * statements: the read, which first locks the scenario row (cells of one scenario settle one at
 * a time; whichever settle starts after the last cell was recorded sees every cell done), and
 * the write of status and metrics together. Called inside a transaction, which holds the lock.
 */
export async function settleScenario(
  tx: Executor,
  run: EvaluationRunRow,
  scenarioId: string,
  now: Date,
): Promise<boolean> {
  const cells = await rawQuery<SettleCell>(
    tx,
    `with locked as (select id from evaluation_scenarios where id = $2::uuid for update)
     select step_key, status, outputs, latency_ms, tokens, cost_usd from evaluation_results
     where run_id = $1::uuid and scenario_id = $2::uuid and exists (select 1 from locked)`,
    [run.id, scenarioId],
  );
  if (!isSettleable(cells)) return false;
  await writeSettled(tx, run, scenarioId, cells, now);
  return true;
}

/** A scenario's status and variational metrics, from its cells (none open), in one statement. */
export async function writeSettled(
  db: Executor,
  run: EvaluationRunRow,
  scenarioId: string,
  cells: SettleCell[],
  now = new Date(),
): Promise<void> {
  const { status, data } = settledFrom(run, cells);
  const [scenario] = await rawQuery<{ timestamp_ms: number | null; interval: number | null }>(
    db,
    `with s as (
       update evaluation_scenarios set status = $5, updated_at = $7::timestamptz where id = $4::uuid
       returning (extract(epoch from timestamp) * 1000)::float8 as timestamp_ms, interval
     ), m as (
       insert into evaluation_metrics (id, project_id, run_id, scenario_id, status, data, created_at, updated_at)
       values ($1::uuid, $2::uuid, $3::uuid, $4::uuid, 'success', $6::text::jsonb, $7::timestamptz, $7::timestamptz)
       on conflict (run_id, scenario_id) where scenario_id is not null and timestamp is null
       do update set data = excluded.data, status = 'success', updated_at = excluded.updated_at
       returning 1
     )
     select timestamp_ms, interval from s`,
    [newId(), run.projectId, run.id, scenarioId, status, JSON.stringify(data), now.toISOString()],
  );
  // A live run's window has its own metrics, current as each of its scenarios settles.
  if (run.flags.is_live && scenario?.timestamp_ms != null)
    await refreshTemporalMetrics(db, run, new Date(Number(scenario.timestamp_ms)), scenario.interval);
}

/** A scenario's status and variational metrics, from all of its cells. */
function settledFrom(run: EvaluationRunRow, cells: SettleCell[]) {
  return {
    status: rollupOf(cells.map((c) => c.status)),
    data: computeMetrics(
      readRunData(run.data).steps,
      cells.map((c) => ({
        stepKey: c.step_key,
        status: c.status,
        outputs: c.outputs,
        latencyMs: c.latency_ms === null ? null : Number(c.latency_ms),
        tokens: c.tokens,
        costUsd: c.cost_usd === null ? null : Number(c.cost_usd),
      })),
    ),
  };
}

/** A scenario to settle from its cells (none open), as the record that ended it returned them. */
export interface SettledScenario {
  run: EvaluationRunRow;
  scenarioId: string;
  cells: SettleCell[];
}

/**
 * Scenarios of runs that are not live, settled from their cells in one statement: status and
 * variational metrics, as `writeSettled` writes one. The scenario rows are locked in id order
 * first, as the run's end locks the ones still unsettled, so the two never deadlock; the metrics
 * insert reads the locked rows, so it waits for every lock (sub-statements of a WITH run in no
 * set order: without that, its rows could be inserted before the locks were taken, and the run's
 * end, holding a scenario and inserting its metrics, would wait on this statement's insert while
 * this waited on its lock). The scenarios are looked up as an array in the primary key (see
 * `dueCells`): joined to the rows as a set, once the table's statistics were real, the planner
 * hashed them and scanned every scenario of every run.
 */
export async function writeSettledMany(db: Executor, scenarios: SettledScenario[], now = new Date()): Promise<void> {
  if (scenarios.length === 0) return;
  const rows = scenarios.map(({ run, scenarioId, cells }) => ({
    metric_id: newId(),
    project_id: run.projectId,
    run_id: run.id,
    scenario_id: scenarioId,
    ...settledFrom(run, cells),
  }));
  await rawQuery(
    db,
    `with x as (
       select * from jsonb_to_recordset($1::text::jsonb)
         as x(metric_id uuid, project_id uuid, run_id uuid, scenario_id uuid, status text, data jsonb)
     ), locked as (
       select e.id from evaluation_scenarios e where e.id = any(array(select scenario_id from x))
       order by e.id for update
     ), s as (
       update evaluation_scenarios e set status = x.status, updated_at = $2::timestamptz
       from x where e.id = any(array(select id from locked)) and x.scenario_id = e.id
     )
     insert into evaluation_metrics (id, project_id, run_id, scenario_id, status, data, created_at, updated_at)
     select metric_id, project_id, run_id, scenario_id, 'success', data, $2::timestamptz, $2::timestamptz from x
     where x.scenario_id in (select id from locked)
     on conflict (run_id, scenario_id) where scenario_id is not null and timestamp is null
     do update set data = excluded.data, status = 'success', updated_at = excluded.updated_at`,
    [JSON.stringify(rows), now.toISOString()],
  );
}

/**
 * After a cell was recorded: its scenario settles when nothing of it is left to run (see
 * settleScenario), in one transaction.
 */
export async function settleCell(
  db: Database,
  run: EvaluationRunRow,
  scenarioId: string,
  now = new Date(),
): Promise<boolean> {
  return db.transaction((tx) => settleScenario(tx, run, scenarioId, now));
}

/**
 * Ends a running run whose cells are all done, once (the run row is locked and must still be
 * running): `errors` when a cell failed, `success` otherwise; a run waiting for people stays
 * running. Writes the global metrics and `evaluations.runs.finished` in the same transaction.
 */
export async function finalizeIfDone(
  db: Executor,
  runId: string,
  now = new Date(),
): Promise<EvaluationRunRow | undefined> {
  // Most calls come while other cells are still open: a look without locking the run answers them.
  const [open] = await rawQuery(
    db,
    `select 1 from evaluation_results where run_id = $1::uuid and status in ('queued', 'running') limit 1`,
    [runId],
  );
  if (open) return undefined;
  const finish = async (tx: Executor) => {
    // NO KEY UPDATE: it excludes other finalizers, but not the key-share locks that writes of the
    // run's metrics and scenarios take through their foreign key (FOR UPDATE would deadlock with a
    // scenario settling: it holds the scenario and waits for the run's key, we the reverse).
    const [run] = await tx.select().from(evaluationRuns).where(eq(evaluationRuns.id, runId)).for("no key update");
    // A live run is never finished: it runs until stopped (reference §4.7).
    if (!run || run.status !== "running" || run.flags.is_closed || run.flags.is_live) return undefined;
    const status = await rollup(tx, eq(r.runId, run.id));
    if (status === "open" || status === "pending") return undefined;
    // A worker that died between recording a cell and settling its scenario left it unsettled.
    const unsettled = await tx
      .select({ id: evaluationScenarios.id })
      .from(evaluationScenarios)
      .where(and(eq(evaluationScenarios.runId, run.id), inArray(evaluationScenarios.status, ["running", "queued"])))
      // In id order, as a batch of settles locks them (writeSettledMany): no deadlock between the two.
      .orderBy(evaluationScenarios.id)
      .for("update");
    for (const { id } of unsettled) await settleScenario(tx, run, id, now);
    // A queue waiting for its first pushed rows has nothing done yet: it stays running.
    if (takesPushedRows(readRunData(run.data))) {
      const [cell] = await tx.select({ id: r.id }).from(r).where(eq(r.runId, run.id)).limit(1);
      if (!cell) return undefined;
    }
    const metrics = await refreshMetrics(tx, run);
    const [done] = await tx
      .update(evaluationRuns)
      .set({ status, flags: { ...run.flags, is_active: false }, updatedAt: now })
      .where(eq(evaluationRuns.id, run.id))
      .returning();
    await emitRunEvent(tx, "evaluations.runs.finished", done, { metrics: metrics.data });
    return done;
  };
  return db.transaction(finish);
}

/**
 * Runs past their time budget: what is still queued or running fails with a message that says
 * why, and the run fails (`evaluations.runs.failed`). Workers holding its cells see the run end
 * and abort them; their late writes are refused by the lease check.
 */
export async function expireRuns(db: Executor, now = new Date()): Promise<number> {
  const run = evaluationRuns;
  // Prepared: every idle poll of the worker asks.
  const due = await rawQuery<{ id: string }>(
    db,
    "select id::text as id from evaluation_runs where status = 'running' and deadline_at < $1::timestamptz",
    [now.toISOString()],
  );
  for (const { id } of due) {
    await (db as { transaction: (f: (tx: Executor) => Promise<void>) => Promise<void> }).transaction(async (tx) => {
      const [locked] = await tx
        .select()
        .from(run)
        .where(and(eq(run.id, id), eq(run.status, "running")))
        .for("update", { skipLocked: true });
      if (!locked) return;
      const seconds = Math.round(
        (locked.deadlineAt!.getTime() - (locked.startedAt ?? locked.createdAt).getTime()) / 1000,
      );
      const error = {
        code: "time_budget_exceeded",
        message: `the run's time budget (data.concurrency.timeout, ${seconds} s) ran out before this cell finished`,
      };
      await tx
        .update(r)
        .set({ status: "failure", error, leaseUntil: null, leaseToken: null, updatedAt: now })
        .where(and(eq(r.runId, id), inArray(r.status, OPEN)));
      await tx
        .update(evaluationScenarios)
        .set({ status: "errors", updatedAt: now })
        .where(
          and(eq(evaluationScenarios.runId, id), inArray(evaluationScenarios.status, ["running", "pending", "queued"])),
        );
      const metrics = await refreshMetrics(tx, locked);
      const [failed] = await tx
        .update(run)
        .set({ status: "failure", flags: { ...locked.flags, is_active: false }, updatedAt: now })
        .where(eq(run.id, id))
        .returning();
      await emitRunEvent(tx, "evaluations.runs.failed", failed, { error, metrics: metrics.data });
    });
  }
  return due.length;
}

/**
 * After cells were written by hand (a person's scores, an SDK's outputs) on a running run: the
 * touched scenarios settle and the run may finish, as when a worker writes them.
 */
export async function settleWrittenCells(
  db: Database,
  projectId: string,
  cells: { runId: string; scenarioId: string }[],
): Promise<void> {
  const runIds = [...new Set(cells.map((c) => c.runId))];
  for (const runId of runIds) {
    const [run] = await db
      .select()
      .from(evaluationRuns)
      .where(and(eq(evaluationRuns.projectId, projectId), eq(evaluationRuns.id, runId)));
    if (!run || run.status !== "running") continue;
    const now = new Date();
    for (const scenarioId of new Set(cells.filter((c) => c.runId === runId).map((c) => c.scenarioId))) {
      await settleCell(db, run, scenarioId, now);
    }
    await finalizeIfDone(db, runId, now);
  }
}
