import type { Database } from "@/server/db";
import type { Scope } from "@/server/versioning";
import { startRun } from "../execution/start-run";
import { stopRun } from "../execution/stop-run";
import { validateGraph } from "../execution/validate-graph";
import { readRunData } from "../model/run-data";
import type { RunRow } from "../model/rows";
import { deleteRuns, findRun, insertRun, queryRuns, setRunFlags } from "../store/run-store";
import { reconcileDefaultQueue } from "../queues/default-queue";
import { buildSteps } from "./build-steps";
import { runProgress } from "./progress";
import type { SimpleEvaluationInput } from "./simple-input";
import { simpleEvaluationToWire } from "./simple-wire";

export type SimpleEvaluation = ReturnType<typeof simpleEvaluationToWire>;

export async function withProgress(db: Database, run: RunRow): Promise<SimpleEvaluation> {
  return simpleEvaluationToWire(run, await runProgress(db, run.id));
}

/**
 * Builds the graph, creates the run and starts it; the run is visible at once and the workers
 * take it from there. Every problem with the input is a 4xx naming it, before anything is stored.
 */
export async function createSimpleEvaluation(db: Database, scope: Scope, input: SimpleEvaluationInput): Promise<SimpleEvaluation> {
  const steps = await buildSteps(db, scope.projectId, input);
  const data = { steps, repeats: input.data?.repeats ?? 1, concurrency: input.data?.concurrency ?? null, ...(input.data?.testcases ? { testcases: input.data.testcases } : {}) };
  await validateGraph(db, scope.projectId, { ...data, steps });
  const run = await db.transaction(async (tx) => reconcileDefaultQueue(tx, await insertRun(tx, scope, { name: input.name, description: input.description, flags: input.flags, tags: input.tags, meta: input.meta, data })));
  return withProgress(db, await startRun(db, scope, run.id));
}

export async function getSimpleEvaluation(db: Database, projectId: string, id: string): Promise<SimpleEvaluation | undefined> {
  const run = await findRun(db, projectId, id);
  return run ? withProgress(db, run) : undefined;
}

export async function querySimpleEvaluations(db: Database, projectId: string, filter: { flags?: Record<string, unknown> | null; tags?: Record<string, unknown> | null; meta?: Record<string, unknown> | null; ids?: string[] | null; name?: string | null }, paging?: { next?: string; limit?: number }) {
  const page = await queryRuns(db, projectId, filter, paging);
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

export { readRunData };
