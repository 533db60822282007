import { and, eq, inArray } from "drizzle-orm";
import { BadRequestError } from "@/server/core/errors";
import { newId } from "@/server/core/ids";
import type { Database, Executor } from "@/server/db";
import { evaluationResults, evaluationRuns, evaluationScenarios } from "@/server/db/schema";
import type { Scope } from "@/server/versioning";
import { notifyEvaluationWorkers } from "../execution/channel";
import { finalizeIfDone } from "../execution/settle";
import { requeueCells, type CellSlice } from "../execution/start-run";
import { refreshMetrics } from "../metrics/refresh-metrics";
import { readRunData, type Step } from "../model/run-data";
import type { ResultRow, EvaluationRunRow } from "../model/rows";
import { pruneRemovedSteps } from "../store/prune-steps";
import { reconcileDefaultQueue } from "../queues/default-queue";
import { upsertResults, type ResultInput } from "../store/result-store";
import { editRun, openRunForWrite } from "../store/run-store";

const r = evaluationResults;

/** The cells a slice addresses: an omitted dimension means all, an explicit `[]` none. */
function sliceWhere(runId: string, slice: CellSlice) {
  return and(
    eq(r.runId, runId),
    slice.scenario_ids ? inArray(r.scenarioId, slice.scenario_ids.length ? slice.scenario_ids : [newId()]) : undefined,
    slice.step_keys ? inArray(r.stepKey, slice.step_keys.length ? slice.step_keys : [""]) : undefined,
    slice.repeat_idxs ? inArray(r.repeatIdx, slice.repeat_idxs.length ? slice.repeat_idxs : [-1]) : undefined,
  );
}

export async function probeCells(
  db: Database,
  projectId: string,
  runId: string,
  slice: CellSlice,
): Promise<ResultRow[]> {
  await openRunForWrite(db, projectId, runId).catch((error: { status?: number }) => {
    if (error.status !== 409) throw error;
  });
  return db.select().from(r).where(sliceWhere(runId, slice));
}

/** Like the results upsert, but every cell must belong to this run and to one of its scenarios (else 400). */
export async function populateCells(
  db: Database,
  projectId: string,
  runId: string,
  results: ResultInput[],
): Promise<ResultRow[]> {
  const foreign = results.find((x) => x.run_id !== runId);
  if (foreign)
    throw new BadRequestError(
      `every result's run_id must be the evaluation in the path (${runId}); got ${foreign.run_id}`,
      "run_mismatch",
    );
  return upsertResults(db, projectId, results);
}

/** Queues the addressed cells for the workers: the missing or failed ones, or all of them with `overwrite`. */
export async function processCells(
  db: Database,
  projectId: string,
  runId: string,
  slice: CellSlice & { overwrite?: boolean | null },
): Promise<void> {
  await db.transaction(async (tx) => {
    const run = await openRunForWrite(tx, projectId, runId);
    const now = new Date();
    await requeueCells(tx, run, { ...slice, overwrite: slice.overwrite ?? false }, now);
    await tx
      .update(evaluationRuns)
      .set({ status: "running", flags: { ...run.flags, is_active: true }, updatedAt: now })
      .where(eq(evaluationRuns.id, run.id));
    // A slice with nothing left to run (every addressed cell succeeded) finishes the run again at
    // once: no cell will land to do it.
    await finalizeIfDone(tx, run.id, now);
    await notifyEvaluationWorkers(tx);
  });
}

/** Deletes the addressed cells, then refreshes the metrics of that scope. */
export async function pruneCells(db: Database, projectId: string, runId: string, slice: CellSlice): Promise<void> {
  await db.transaction(async (tx) => {
    const run = await openRunForWrite(tx, projectId, runId);
    const touched = await tx.delete(r).where(sliceWhere(runId, slice)).returning({ scenarioId: r.scenarioId });
    await refreshScope(tx, run, [...new Set(touched.map((t) => t.scenarioId))]);
  });
}

/** Recomputes the metrics of the addressed scenarios and the run's global row. */
export async function refreshSlice(db: Database, projectId: string, runId: string, slice: CellSlice): Promise<void> {
  const run = await openRunForWrite(db, projectId, runId);
  const scenarios =
    slice.scenario_ids ??
    (
      await db
        .select({ id: evaluationScenarios.id })
        .from(evaluationScenarios)
        .where(eq(evaluationScenarios.runId, runId))
    ).map((s) => s.id);
  await refreshScope(db, run, scenarios);
}

async function refreshScope(db: Executor, run: EvaluationRunRow, scenarioIds: string[]) {
  const existing = scenarioIds.length
    ? await db
        .select({ id: evaluationScenarios.id })
        .from(evaluationScenarios)
        .where(inArray(evaluationScenarios.id, scenarioIds))
    : [];
  for (const { id } of existing) await refreshMetrics(db, run, id);
  await refreshMetrics(db, run);
}

/** N empty scenarios, `running`; a timestamp is floored to the minute with interval 1. */
export async function addScenarios(
  db: Database,
  projectId: string,
  runId: string,
  count: number,
  timestamp?: string | null,
) {
  await openRunForWrite(db, projectId, runId);
  const floored = timestamp ? new Date(Math.floor(new Date(timestamp).getTime() / 60_000) * 60_000) : null;
  const now = new Date();
  return db
    .insert(evaluationScenarios)
    .values(
      Array.from({ length: count }, () => ({
        id: newId(),
        projectId,
        runId,
        status: "running",
        timestamp: floored,
        interval: floored ? 1 : null,
        createdAt: now,
        updatedAt: now,
      })),
    )
    .returning();
}

export async function removeScenarios(db: Database, projectId: string, runId: string, ids: string[]): Promise<void> {
  await openRunForWrite(db, projectId, runId);
  const mine = await db
    .select({ id: evaluationScenarios.id })
    .from(evaluationScenarios)
    .where(and(eq(evaluationScenarios.runId, runId), inArray(evaluationScenarios.id, ids.length ? ids : [newId()])));
  if (mine.length !== new Set(ids).size)
    throw new BadRequestError(
      `All scenario_ids must belong to the evaluation in the path (${runId})`,
      "scenario_mismatch",
    );
  if (ids.length) await db.delete(evaluationScenarios).where(inArray(evaluationScenarios.id, ids));
}

/** Steps add (idempotent by key), steps remove (their cells are pruned), repeats set: one edit path. */
export async function reshapeRun(
  db: Database,
  scope: Scope,
  runId: string,
  change: { add?: Step[]; remove?: string[]; repeats?: number },
): Promise<EvaluationRunRow> {
  return db.transaction(async (tx) => {
    const run = await openRunForWrite(tx, scope.projectId, runId);
    const data = readRunData(run.data);
    let steps = data.steps;
    for (const step of change.add ?? []) if (!steps.some((s) => s.key === step.key)) steps = [...steps, step];
    if (change.remove) steps = steps.filter((s) => !change.remove!.includes(s.key));
    const { before, after } = await editRun(tx, scope, runId, {
      data: { ...data, steps, repeats: change.repeats ?? data.repeats },
    });
    await pruneRemovedSteps(tx, before, after);
    return reconcileDefaultQueue(tx, after);
  });
}
