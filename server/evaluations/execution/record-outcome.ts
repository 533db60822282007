import { newId } from "@/server/core/ids";
import { rawQuery, type Database, type Executor } from "@/server/db";
import { redactorFor, type Redactor } from "@/server/redaction";
import { DEFAULT_MAX_RETRIES, DEFAULT_RETRY_DELAY_S, readRunData } from "../model/run-data";
import type { EvaluationRunRow } from "../model/rows";
import { notifyEvaluationWorkers } from "./channel";
import { leaseCells, type WorkCell } from "./claim-cells";
import type { CellOutcome } from "./invocation-outcome";
import { recordFinal } from "./record-final";
import type { SettleCell } from "./settle";

export type Recorded = "released" | "retry" | "done" | "lost";

/** The next cell of the run, leased in the transaction that recorded the last one. */
export interface HandedOff {
  cell: WorkCell;
  token: string;
  /** The run row's `updated_at` (ms) now: when it moved, the worker reads the run again. */
  runUpdatedMs?: number;
}

/** Seconds before attempt `attempts + 1`: the run's retry_delay, doubled per attempt, at most 5 min. */
export function retryDelayMs(run: EvaluationRunRow, attempts: number): number {
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

/** An outcome as the project's redaction rules store it: its outputs and its error message. */
function storedOutcome(outcome: CellOutcome, redactor: Redactor): CellOutcome {
  if (!redactor.active) return outcome;
  return outcome.status === "success"
    ? { ...outcome, outputs: redactor.value(outcome.outputs) }
    : { ...outcome, error: { ...outcome.error, message: redactor.text(outcome.error.message) } };
}

/**
 * Writes a cell's outcome if this worker still holds its lease (the token): a stopped cell goes
 * back to the queue, a retryable failure is queued again after a backoff while attempts remain,
 * anything else is final. A final write also releases or fails the evaluator cells waiting on it
 * and, with `handOff`, leases the run's next due cell to the same worker, all in one statement
 * (record-final.ts): a slot goes from one cell to the next in one round trip, without a claim.
 * Settling the scenario (`settleCell`) comes after, off that path. `scored`: outcomes of evaluator
 * steps computed in memory from a successful invocation's output, recorded final with it. Every
 * outcome is stored as the project's redaction rules leave it (evaluators in memory scored the
 * output as it came).
 */
export async function recordOutcome(
  db: Database,
  run: EvaluationRunRow,
  cell: WorkCell,
  token: string,
  outcome: CellOutcome,
  now = new Date(),
  handOff?: { leaseMs: number },
  scored?: Record<string, CellOutcome>,
): Promise<{ recorded: Recorded; next?: HandedOff; scenarioOpen?: boolean; scenarioCells?: SettleCell[] }> {
  const { redactor } = await redactorFor(db, run.projectId);
  outcome = storedOutcome(outcome, redactor);
  if (scored && redactor.active)
    scored = Object.fromEntries(Object.entries(scored).map(([key, o]) => [key, storedOutcome(o, redactor)]));
  const at = now.toISOString();
  if (outcome.status === "failure" && outcome.error.code === "cancelled") {
    const back = await writeHeld(
      db,
      cell,
      token,
      `status = 'queued', due_at = $3::timestamptz, attempts = greatest(attempts - 1, 0), updated_at = $3::timestamptz`,
      [at],
    );
    return { recorded: back ? "released" : "lost" };
  }
  const maxRetries = readRunData(run.data).concurrency?.max_retries ?? DEFAULT_MAX_RETRIES;
  if (outcome.status === "failure" && outcome.error.retryable && cell.attempts <= maxRetries) {
    // Requeued and the next cell leased in one transaction: one out, one in.
    return db.transaction(async (tx) => {
      const due = new Date(now.getTime() + retryDelayMs(run, cell.attempts)).toISOString();
      const back = await writeHeld(
        tx,
        cell,
        token,
        `status = 'queued', due_at = $3::timestamptz, error = $4::text::jsonb, updated_at = $5::timestamptz`,
        [due, json(outcome.error), at],
      );
      if (!back) return { recorded: "lost" as const };
      if (!handOff) return { recorded: "retry" as const };
      const nextToken = newId();
      const { cells, runUpdatedMs } = await leaseCells(tx, run, 1, nextToken, handOff.leaseMs, now);
      return {
        recorded: "retry" as const,
        next: cells[0] ? { cell: cells[0], token: nextToken, runUpdatedMs } : undefined,
      };
    });
  }
  // One statement, so one round trip: the common case of every cell.
  const final = await recordFinal(db, run, cell, token, outcome, now, handOff, scored);
  if (!final.written) return { recorded: "lost" };
  const success = outcome.status === "success";
  // Workers idle elsewhere may take the evaluator cells this released and did not hand to this
  // slot (sent after the commit); failed ones wait for no one.
  if (success && final.released > 0) await notifyEvaluationWorkers(db);
  // Cells of the scenario just released or leased are open: settling it now would find it open.
  const scenarioOpen = success && (final.released > 0 || final.next?.cell.scenarioId === cell.scenarioId);
  // This cell ended the scenario: its cells, this one with its outcome, to settle from.
  const scenarioCells =
    final.siblings && !scenarioOpen
      ? [
          ...final.siblings,
          {
            step_key: cell.stepKey,
            status: outcome.status,
            outputs: outcome.status === "success" ? (outcome.outputs ?? null) : null,
            latency_ms: outcome.latencyMs,
            tokens: outcome.status === "success" ? (outcome.tokens ?? null) : null,
            cost_usd: outcome.status === "success" ? (outcome.costUsd ?? null) : null,
          },
        ]
      : undefined;
  return { recorded: "done", next: final.next, scenarioOpen, scenarioCells };
}
