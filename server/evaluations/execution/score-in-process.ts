import type { AppContext } from "@/server/core/app-context";
import { runsInProcess } from "@/server/evaluations/evaluators";
import { readRunData } from "../model/run-data";
import type { EvaluationRunRow } from "../model/rows";
import type { WorkCell } from "./claim-cells";
import { dependencyShape } from "./cell-dependencies";
import { scoreOutput } from "./execute-cell";
import type { CellOutcome } from "./invocation-outcome";
import { evaluatorTarget } from "./step-targets";

/**
 * The run's evaluator steps that compute in this process (`runsInProcess`: no model, network or
 * sandbox), scored now from the output of the invocation cell just run, by step key. The worker
 * records them with the invocation in one statement (record-final.ts), so such a scenario costs
 * one write and no second pass through the slot. Their cells wait on this invocation (`due_at`
 * null), so no other worker can run them meanwhile; a worker that dies before the record loses
 * both, and the invocation runs again. Other evaluators are left to their cells, as before.
 */
export async function scoreInProcess(
  app: AppContext,
  run: EvaluationRunRow,
  cell: WorkCell,
  outcome: CellOutcome,
  signal: AbortSignal,
): Promise<Record<string, CellOutcome>> {
  const { invocation, evaluators } = dependencyShape(run);
  const scored: Record<string, CellOutcome> = {};
  if (outcome.status !== "success" || invocation?.key !== cell.stepKey) return scored;
  const steps = readRunData(run.data).steps;
  for (const key of evaluators) {
    const step = steps.find((s) => s.key === key);
    // A revision that cannot be read is left to its cell, which records why.
    const target = step && (await evaluatorTarget(app.db, run.projectId, step).catch(() => undefined));
    if (!step || !target || !runsInProcess(target.uri)) continue;
    const upstream = { outputs: outcome.outputs, traceId: outcome.traceId ?? null };
    scored[key] = await scoreOutput(app, run, step, cell.inputs, upstream, signal);
  }
  return scored;
}
