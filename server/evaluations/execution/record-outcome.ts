import { newId } from "@/server/core/ids";
import { rawQuery, type Database, type Executor } from "@/server/db";
import { DEFAULT_MAX_RETRIES, DEFAULT_RETRY_DELAY_S, readRunData } from "../model/run-data";
import type { RunRow } from "../model/rows";
import { settleDependents } from "./cell-dependencies";
import { notifyEvaluationWorkers } from "./channel";
import { leaseCells, type WorkCell } from "./claim-cells";
import type { CellOutcome } from "./invocation-outcome";

export type Recorded = "released" | "retry" | "done" | "lost";

/** The next cell of the run, leased in the transaction that recorded the last one. */
export interface HandedOff {
  cell: WorkCell;
  token: string;
  /** The run row's `updated_at` (ms) now: when it moved, the worker reads the run again. */
  runUpdatedMs?: number;
}

/** Seconds before attempt `attempts + 1`: the run's retry_delay, doubled per attempt, at most 5 min. */
export function retryDelayMs(run: RunRow, attempts: number): number {
  const base = readRunData(run.data).concurrency?.retry_delay ?? DEFAULT_RETRY_DELAY_S;
  return Math.min(300, base * 2 ** Math.max(0, attempts - 1)) * 1000;
}

/** Writes a cell this worker holds (its token), ending the lease; the id when it still held it. */
async function writeHeld(tx: Executor, cell: WorkCell, token: string, set: string, values: unknown[]) {
  const rows = await rawQuery(
    tx,
    `update evaluation_results set lease_until = null, lease_token = null, ${set}
     where id = $1::uuid and lease_token = $2::uuid and status = 'running' returning id`,
    [cell.id, token, ...values],
  );
  return rows.length > 0;
}

const json = (value: unknown) => (value === undefined || value === null ? null : JSON.stringify(value));

/**
 * Writes a cell's outcome if this worker still holds its lease (the token): a stopped cell goes
 * back to the queue, a retryable failure is queued again after a backoff while attempts remain,
 * anything else is final. A final write releases or fails the evaluator cells waiting on it, in
 * the same transaction, which also leases the run's next due cell to the same worker when
 * `handOff` is given (one for one, so the run's batch_size holds): a slot goes from one cell to
 * the next in a few round trips, without another claim. Settling the scenario (`settleCell`)
 * comes after, off that path.
 */
export async function recordOutcome(
  db: Database,
  run: RunRow,
  cell: WorkCell,
  token: string,
  outcome: CellOutcome,
  now = new Date(),
  handOff?: { leaseMs: number },
): Promise<{ recorded: Recorded; next?: HandedOff }> {
  const at = now.toISOString();
  return db.transaction(async (tx) => {
    const next = async (): Promise<HandedOff | undefined> => {
      if (!handOff) return undefined;
      const nextToken = newId();
      const { cells, runUpdatedMs } = await leaseCells(tx, run, 1, nextToken, handOff.leaseMs, now);
      return cells[0] ? { cell: cells[0], token: nextToken, runUpdatedMs } : undefined;
    };
    if (outcome.status === "failure" && outcome.error.code === "cancelled") {
      const back = await writeHeld(
        tx,
        cell,
        token,
        `status = 'queued', due_at = $3::timestamptz, attempts = greatest(attempts - 1, 0), updated_at = $3::timestamptz`,
        [at],
      );
      return { recorded: back ? "released" : "lost" };
    }
    const maxRetries = readRunData(run.data).concurrency?.max_retries ?? DEFAULT_MAX_RETRIES;
    if (outcome.status === "failure" && outcome.error.retryable && cell.attempts <= maxRetries) {
      const due = new Date(now.getTime() + retryDelayMs(run, cell.attempts)).toISOString();
      const back = await writeHeld(
        tx,
        cell,
        token,
        `status = 'queued', due_at = $3::timestamptz, error = $4::text::jsonb, updated_at = $5::timestamptz`,
        [due, json(outcome.error), at],
      );
      return back ? { recorded: "retry", next: await next() } : { recorded: "lost" };
    }
    const success = outcome.status === "success";
    const written = await writeHeld(
      tx,
      cell,
      token,
      `status = $3, outputs = $4::text::jsonb, error = $5::text::jsonb, tokens = $6::int, cost_usd = $7::float8,
       trace_id = $8, latency_ms = $9::float8, due_at = null, updated_at = $10::timestamptz`,
      [
        success ? "success" : "failure",
        success ? json(outcome.outputs) : null,
        success ? null : json(outcome.error),
        success ? (outcome.tokens ?? null) : null,
        success ? (outcome.costUsd ?? null) : null,
        outcome.traceId ?? null,
        outcome.latencyMs,
        at,
      ],
    );
    if (!written) return { recorded: "lost" };
    // Only an invocation cell has cells waiting on it.
    const invocation = readRunData(run.data).steps.find((s) => s.key === cell.stepKey)?.type === "invocation";
    const released = invocation ? await settleDependents(tx, run, now, cell.scenarioId, outcome.status) : 0;
    if (released > 0) await notifyEvaluationWorkers(tx);
    return { recorded: "done", next: await next() };
  });
}
