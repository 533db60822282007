import type { Database } from "@/server/db";
import type { Windowing } from "@/server/core/windowing";
import type { Scope } from "@/server/versioning";
import { startRun } from "../execution/start-run";
import { emitRunEvent } from "../execution/run-events";
import { stopRun } from "../execution/stop-run";
import { validateGraph } from "../execution/validate-graph";
import { readRunData } from "../model/run-data";
import type { EvaluationRunRow } from "../model/rows";
import { pruneRemovedSteps } from "../store/prune-steps";
import {
  deleteRuns,
  editRun,
  findEvaluationRun,
  findRunOutline,
  insertEvaluationRun,
  outlineOf,
  queryRuns,
  setRunFlags,
  type RunOutline,
} from "../store/run-store";
import { reconcileDefaultQueue } from "../queues/default-queue";
import { buildSteps } from "./build-steps";
import { runProgress } from "./progress";
import type { SimpleEvaluationInput } from "./input";
import { simpleEvaluationToWire } from "./wire";

export type SimpleEvaluation = ReturnType<typeof simpleEvaluationToWire>;

export async function withProgress(db: Database, run: EvaluationRunRow | RunOutline): Promise<SimpleEvaluation> {
  return simpleEvaluationToWire(outlineOf(run), await runProgress(db, run.id));
}

/** What an evaluation says about itself, beside its graph. */
function headerOf(input: SimpleEvaluationInput) {
  const { name, description, flags, tags, meta } = input;
  return { name, description, flags, tags, meta };
}

/**
 * Builds the graph, creates the run and starts it; the run is visible at once and the workers
 * take it from there. Every problem with the input is a 4xx naming it, before anything is stored.
 * `data.status: "running"` is the reference SDK's local loop: the client runs the evaluation and
 * writes its scenarios and results through the low-level API, so the run is created running and
 * active and nothing here executes it (no scenarios minted, no cells queued).
 */
export async function createSimpleEvaluation(
  db: Database,
  scope: Scope,
  input: SimpleEvaluationInput,
): Promise<SimpleEvaluation> {
  const steps = await buildSteps(db, scope.projectId, input);
  const data = {
    steps,
    repeats: input.data?.repeats ?? 1,
    concurrency: input.data?.concurrency ?? null,
    ...(input.data?.testcases ? { testcases: input.data.testcases } : {}),
    ...(input.data?.trace_ids ? { trace_ids: input.data.trace_ids } : {}),
  };
  const clientDriven = input.data?.status === "running";
  if (!clientDriven) await validateGraph(db, scope.projectId, { ...data, steps }, input.flags ?? {});
  const run = await db.transaction(async (tx) => {
    const inserted = await insertEvaluationRun(tx, scope, {
      ...headerOf(input),
      data,
      ...(clientDriven ? { status: "running", active: true } : {}),
    });
    if (clientDriven) await emitRunEvent(tx, "evaluations.runs.started", inserted, { cells: 0 });
    return reconcileDefaultQueue(tx, inserted);
  });
  if (clientDriven) return withProgress(db, run);
  try {
    return withProgress(db, await startRun(db, scope, run.id));
  } catch (error) {
    // A run that cannot start (an empty testset) is not left behind.
    await deleteRuns(db, scope.projectId, [run.id]);
    throw error;
  }
}

/**
 * Edits an evaluation: its header, and with `data` its graph (rebuilt from the step maps, cells
 * of dropped steps pruned) and repeats. A running evaluation is stopped for the edit and started
 * again after it, so the new graph runs.
 */
export async function editSimpleEvaluation(
  db: Database,
  scope: Scope,
  id: string,
  input: SimpleEvaluationInput,
): Promise<SimpleEvaluation | undefined> {
  const current = await findEvaluationRun(db, scope.projectId, id);
  if (!current) return undefined;
  const wasRunning = current.status === "running" && current.flags.is_active;
  if (wasRunning) await stopRun(db, scope.projectId, id);
  const previous = readRunData(current.data);
  const data = input.data
    ? {
        ...previous,
        steps: await buildSteps(db, scope.projectId, {
          ...input,
          data: {
            ...input.data,
            testcases: input.data.testcases ?? previous.testcases,
            trace_ids: input.data.trace_ids ?? previous.trace_ids,
          },
        }),
        repeats: input.data.repeats ?? previous.repeats,
        concurrency: input.data.concurrency ?? previous.concurrency,
        ...(input.data.testcases ? { testcases: input.data.testcases } : {}),
        ...(input.data.trace_ids ? { trace_ids: input.data.trace_ids } : {}),
      }
    : undefined;
  if (data) await validateGraph(db, scope.projectId, data, { ...current.flags, ...input.flags });
  const edited = await db.transaction(async (tx) => {
    const { before, after } = await editRun(tx, scope, id, { ...headerOf(input), data });
    await pruneRemovedSteps(tx, before, after);
    return reconcileDefaultQueue(tx, after);
  });
  return withProgress(db, wasRunning ? await startRun(db, scope, id) : edited);
}

export async function getSimpleEvaluation(
  db: Database,
  projectId: string,
  id: string,
): Promise<SimpleEvaluation | undefined> {
  const run = await findRunOutline(db, projectId, id);
  return run ? withProgress(db, run) : undefined;
}

export async function querySimpleEvaluations(
  db: Database,
  projectId: string,
  filter: {
    flags?: Record<string, unknown> | null;
    tags?: Record<string, unknown> | null;
    meta?: Record<string, unknown> | null;
    ids?: string[] | null;
    name?: string | null;
    description?: string | null;
  },
  windowing?: Windowing | null,
) {
  const page = await queryRuns(db, projectId, filter, windowing);
  return { items: page.items.map((run) => simpleEvaluationToWire(run)), next: page.next };
}

export async function startSimpleEvaluation(db: Database, scope: Scope, id: string) {
  return withProgress(db, await startRun(db, scope, id));
}

export async function stopSimpleEvaluation(db: Database, projectId: string, id: string) {
  return withProgress(db, await stopRun(db, projectId, id));
}

export async function setSimpleEvaluationClosed(db: Database, projectId: string, id: string, closed: boolean) {
  const [run] = await setRunFlags(db, projectId, [id], { is_closed: closed });
  return run ? withProgress(db, run) : undefined;
}

export async function deleteSimpleEvaluation(db: Database, projectId: string, id: string): Promise<string> {
  await deleteRuns(db, projectId, [id]);
  return id;
}
