import { newId } from "@/server/core/ids";
import { rawQuery, type Executor } from "@/server/db";
import { DEFAULT_BATCH_SIZE, readRunData } from "../model/run-data";
import type { EvaluationRunRow } from "../model/rows";
import { dependencyShape } from "./cell-dependencies";
import { CLAIMED_COLUMNS, dueCells, toCell, type CellRow, type WorkCell } from "./claim-cells";
import type { CellOutcome } from "./invocation-outcome";
import type { SettleCell } from "./settle";

/**
 * A cell's final outcome in one statement, the common case of the hot path: the write under the
 * lease ($1 cell, $2 token); the evaluator cells waiting on an invocation cell released (due now)
 * or failed with it; and, when asked, the run's next cell leased to the same worker. On success
 * the next cell is one of the evaluator cells just released (so the scenario finishes on the slot
 * that has its output in memory), else the run's next due cell. The statement's snapshot still
 * sees the recorded cell as leased, so the room for the next one leaves it out of the count: one
 * out, one in, and the run's batch_size holds. `siblings` are the scenario's other cells when
 * none was open as the statement began: this cell ends the scenario, which settles from them
 * without reading them again (settle.ts). `$19` holds the outcomes of evaluator steps the worker
 * already computed from the output in memory (`{step_key: outcome}`): after a successful
 * invocation their waiting cells are written final here (`scored`) instead of released, so a
 * scenario of an invocation and in-process evaluators costs one record statement. `$20`, `$21`
 * are the cell's scenario and repeat, given rather than joined from `w`: every read of the
 * scenario's cells is then a range of the cell index whatever the table's statistics say (with
 * a new run's stale ones, the planner read every cell of the run for each of them). `$22` says
 * whether any evaluator cell may wait on this one at all.
 */
const RECORD = `
with w as (
  update evaluation_results set lease_until = null, lease_token = null, status = $3, outputs = $4::text::jsonb,
    error = $5::text::jsonb, tokens = $6::int, cost_usd = $7::float8, trace_id = $8, latency_ms = $9::float8,
    due_at = null, updated_at = $10::timestamptz
  where id = $1::uuid and lease_token = $2::uuid and status = 'running'
  returning id
), live as (
  select 1 where $15::bool and exists (select 1 from w) and exists (select 1 from evaluation_runs where id = $12::uuid
    and status = 'running' and flags @> '{"is_active": true}' and not flags @> '{"is_closed": true}')
), scored as (
  update evaluation_results r set status = o.value->>'status', outputs = nullif(o.value->'outputs', 'null'::jsonb),
    error = nullif(o.value->'error', 'null'::jsonb), tokens = (o.value->>'tokens')::int,
    cost_usd = (o.value->>'cost_usd')::float8, trace_id = $8, latency_ms = (o.value->>'latency_ms')::float8,
    attempts = r.attempts + 1, updated_at = $10::timestamptz
  from jsonb_each($19::text::jsonb) o
  where $3 = 'success' and exists (select 1 from w) and r.run_id = $12::uuid and r.scenario_id = $20::uuid
    and r.step_key = o.key and r.status = 'queued' and r.due_at is null and r.step_key = any($13::text[])
    and ($14::bool or r.repeat_idx = $21::int)
  returning r.id, r.step_key, r.status, r.outputs, r.latency_ms, r.tokens, r.cost_usd
), waiting as (
  select e.id from evaluation_results e
  where $22::bool and exists (select 1 from w) and e.run_id = $12::uuid and e.scenario_id = $20::uuid and e.status = 'queued'
    and e.due_at is null and e.step_key = any($13::text[]) and ($14::bool or e.repeat_idx = $21::int)
    and not ($3 = 'success' and e.step_key in (select jsonb_object_keys($19::text::jsonb)))
), take as (
  select id from waiting where $3 = 'success' and exists (select 1 from live) order by id limit 1
), rel as (
  update evaluation_results r set
    status = case when $3 <> 'success' then 'failure' when r.id in (select id from take) then 'running' else r.status end,
    due_at = case when $3 = 'success' then $10::timestamptz else r.due_at end,
    error = case when $3 = 'success' then r.error else $11::text::jsonb end,
    lease_until = case when r.id in (select id from take) then $17::timestamptz else r.lease_until end,
    lease_token = case when r.id in (select id from take) then $18::uuid else r.lease_token end,
    attempts = case when r.id in (select id from take) then r.attempts + 1 else r.attempts end,
    updated_at = $10::timestamptz
  from waiting where r.id = waiting.id and r.run_id = $12::uuid and r.scenario_id = $20::uuid
    and r.status = 'queued' and r.due_at is null
  returning r.id in (select id from take) as taken, ${CLAIMED_COLUMNS}
), room as (
  select least(1, $16::int - (select count(*)::int from evaluation_results
    where run_id = $12::uuid and status = 'running' and lease_until >= $10::timestamptz and id <> $1::uuid)) as n
  where exists (select 1 from live) and not exists (select 1 from take)
), ${dueCells({ run: "$12", now: "$10", limit: "greatest(0, coalesce((select n from room), 0))", except: "$1" })}, nxt as (
  update evaluation_results r
  set status = 'running', lease_until = $17::timestamptz, lease_token = $18::uuid, attempts = r.attempts + 1,
    updated_at = $10::timestamptz
  where r.id = (select id from due limit 1)
  returning ${CLAIMED_COLUMNS}
), handed as (
  select id, run_id, scenario_id, step_key, repeat_idx, attempts, inputs, run_updated_ms from rel where taken
  union all select * from nxt
)
select (select count(*)::int from w) as written, (select count(*)::int from rel where not taken) as released,
  (select case when bool_or(s.status in ('queued', 'running')) then null else coalesce(json_agg(json_build_object(
      'step_key', s.step_key, 'status', s.status, 'outputs', s.outputs, 'latency_ms', s.latency_ms,
      'tokens', s.tokens, 'cost_usd', s.cost_usd)), '[]'::json) end
    from (select o.step_key, o.status, o.outputs, o.latency_ms, o.tokens, o.cost_usd
      from evaluation_results o
      where exists (select 1 from w) and o.run_id = $12::uuid and o.scenario_id = $20::uuid and o.id <> $1::uuid
        and o.id not in (select id from scored)
      union all select step_key, status, outputs, latency_ms, tokens, cost_usd from scored) s) as siblings,
  handed.*
from (select 1) one left join handed on true`;

const json = (value: unknown) => (value === undefined || value === null ? null : JSON.stringify(value));

/** What RECORD writes of an outcome computed in memory (`$19`). */
function scoredRow(outcome: CellOutcome) {
  return outcome.status === "success"
    ? {
        status: "success",
        outputs: outcome.outputs ?? null,
        latency_ms: outcome.latencyMs,
        tokens: outcome.tokens ?? null,
        cost_usd: outcome.costUsd ?? null,
      }
    : { status: "failure", error: outcome.error, latency_ms: outcome.latencyMs };
}

type Row = { written: number; released: number; siblings: SettleCell[] | null } & CellRow;

/** Records a final outcome (see RECORD); the next cell when one was handed off. */
export async function recordFinal(
  db: Executor,
  run: EvaluationRunRow,
  cell: WorkCell,
  token: string,
  outcome: CellOutcome,
  now: Date,
  handOff?: { leaseMs: number },
  scored: Record<string, CellOutcome> = {},
): Promise<{
  written: boolean;
  /** Evaluator cells this outcome released and left due for any worker (or failed, on a failure). */
  released: number;
  next?: { cell: WorkCell; token: string; runUpdatedMs?: number };
  /** The scenario's other cells, all done, when this cell ends it (see RECORD). */
  siblings?: SettleCell[];
}> {
  const { invocation, evaluators, shared } = dependencyShape(run);
  const waits = invocation?.key === cell.stepKey ? evaluators : [];
  const success = outcome.status === "success";
  const at = now.toISOString();
  const nextToken = newId();
  const [row] = await rawQuery<Row>(db, RECORD, [
    cell.id,
    token,
    success ? "success" : "failure",
    success ? json(outcome.outputs) : null,
    success ? null : json(outcome.error),
    success ? (outcome.tokens ?? null) : null,
    success ? (outcome.costUsd ?? null) : null,
    outcome.traceId ?? null,
    outcome.latencyMs,
    at,
    json({
      code: "invocation_failed",
      message: `the application step "${cell.stepKey}" failed for this testcase; see its cell`,
    }),
    run.id,
    `{${waits.map((k) => `"${k.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`).join(",")}}`,
    shared,
    Boolean(handOff),
    readRunData(run.data).concurrency?.batch_size ?? DEFAULT_BATCH_SIZE,
    new Date(now.getTime() + (handOff?.leaseMs ?? 0)).toISOString(),
    nextToken,
    JSON.stringify(Object.fromEntries(Object.entries(scored).map(([key, o]) => [key, scoredRow(o)]))),
    cell.scenarioId,
    cell.repeatIdx,
    // Whether any evaluator cell may wait on this one: a failure fails them all, a success
    // releases those not scored here. None (the common case) skips reading for them.
    !success ? waits.length > 0 : waits.some((key) => !(key in scored)),
  ]);
  const next = row?.id
    ? {
        cell: toCell(row),
        token: nextToken,
        runUpdatedMs: row.run_updated_ms === null ? undefined : Number(row.run_updated_ms),
      }
    : undefined;
  return { written: (row?.written ?? 0) > 0, released: row?.released ?? 0, next, siblings: row?.siblings ?? undefined };
}
