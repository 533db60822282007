import { and, eq, inArray, sql } from "drizzle-orm";
import { BadRequestError } from "@/server/core/errors";
import { newId } from "@/server/core/ids";
import type { Executor } from "@/server/db";
import { evaluationResults, evaluationScenarios } from "@/server/db/schema";
import { redactorFor } from "@/server/redaction";
import type { ResultRow } from "../model/rows";
import { toPage, windowClause, type Windowing } from "@/server/core/windowing";
import { cellConditions, deleteCellRows, type CellFilter } from "./cell-rows";
import { oneOrMany, UNPAGED_CELLS } from "./entity-filters";
import { openRunForWrite } from "./run-store";

const r = evaluationResults;

export interface ResultInput {
  run_id: string;
  scenario_id: string;
  step_key: string;
  repeat_idx?: number | null;
  status?: string | null;
  trace_id?: string | null;
  testcase_id?: string | null;
  hash_id?: string | null;
  error?: Record<string, unknown> | null;
  interval?: number | null;
  timestamp?: string | null;
  flags?: Record<string, boolean> | null;
  tags?: Record<string, unknown> | null;
  meta?: Record<string, unknown> | null;
  /** Beyond the reference implementation: what the step produced (a person's scores, an SDK's outputs). */
  data?: { outputs?: unknown } | null;
}

/**
 * Upserts cells on (run, scenario, step, repeat) (reference §1.3). A scenario that is not in the
 * cell's run is a 400 naming it. A cell written here is done: the workers never claim it.
 */
export async function upsertResults(db: Executor, projectId: string, inputs: ResultInput[]): Promise<ResultRow[]> {
  if (inputs.length === 0) return [];
  for (const runId of new Set(inputs.map((i) => i.run_id))) await openRunForWrite(db, projectId, runId);
  const scenarioIds = [...new Set(inputs.map((i) => i.scenario_id))];
  const known = await db
    .select({ id: evaluationScenarios.id, runId: evaluationScenarios.runId })
    .from(evaluationScenarios)
    .where(and(eq(evaluationScenarios.projectId, projectId), inArray(evaluationScenarios.id, scenarioIds)));
  const runOf = new Map(known.map((k) => [k.id, k.runId]));
  for (const input of inputs) {
    if (runOf.get(input.scenario_id) !== input.run_id) {
      throw new BadRequestError(
        `scenario ${input.scenario_id} does not exist in run ${input.run_id}; create it first (POST /api/evaluations/scenarios/)`,
        "unknown_scenario",
      );
    }
  }
  // Stored as the project's redaction rules leave them: what the step produced, its error, its meta.
  const { redactor } = await redactorFor(db, projectId);
  const now = new Date();
  const rows = inputs.map((i) => ({
    id: newId(),
    projectId,
    runId: i.run_id,
    scenarioId: i.scenario_id,
    stepKey: i.step_key,
    repeatIdx: i.repeat_idx ?? 0,
    status: i.status ?? "pending",
    traceId: i.trace_id ?? null,
    testcaseId: i.testcase_id ?? null,
    hashId: i.hash_id ?? null,
    error: redactor.value(i.error ?? null),
    interval: i.interval ?? null,
    timestamp: i.timestamp ? new Date(i.timestamp) : null,
    flags: i.flags ?? null,
    tags: i.tags ?? null,
    meta: redactor.value(i.meta ?? null),
    outputs: redactor.value(i.data?.outputs ?? null),
    dueAt: null,
    createdAt: now,
    updatedAt: now,
  }));
  const excluded = (column: string) => sql.raw(`excluded.${column}`);
  return db
    .insert(r)
    .values(rows)
    .onConflictDoUpdate({
      target: [r.runId, r.scenarioId, r.stepKey, r.repeatIdx],
      set: {
        traceId: excluded("trace_id"),
        hashId: excluded("hash_id"),
        testcaseId: excluded("testcase_id"),
        error: excluded("error"),
        status: excluded("status"),
        interval: excluded("interval"),
        timestamp: excluded("timestamp"),
        flags: excluded("flags"),
        tags: excluded("tags"),
        meta: excluded("meta"),
        outputs: sql`coalesce(excluded.outputs, ${r.outputs})`,
        dueAt: null,
        leaseUntil: null,
        leaseToken: null,
        updatedAt: now,
      },
    })
    .returning();
}

export async function deleteResults(db: Executor, projectId: string, ids: string[]): Promise<string[]> {
  return deleteCellRows(db, r, projectId, ids);
}

export interface ResultFilter extends CellFilter {
  scenario_id?: string | null;
  scenario_ids?: string[] | null;
  step_key?: string | null;
  step_keys?: string[] | null;
  repeat_idx?: number | null;
  repeat_idxs?: number[] | null;
}

export async function queryResults(
  db: Executor,
  projectId: string,
  filter: ResultFilter = {},
  windowing?: Windowing | null,
): Promise<{ items: ResultRow[]; next?: string }> {
  const page = windowClause(r, windowing ?? {}, "ascending", UNPAGED_CELLS);
  const rows = await db
    .select()
    .from(r)
    .where(
      and(
        ...cellConditions(r, projectId, filter),
        oneOrMany(r.scenarioId, filter.scenario_id, filter.scenario_ids),
        oneOrMany(r.stepKey, filter.step_key, filter.step_keys),
        oneOrMany(r.repeatIdx, filter.repeat_idx, filter.repeat_idxs),
        ...page.conditions,
      ),
    )
    .orderBy(page.orderBy)
    .limit(page.limit + 1);
  return toPage(rows, page.limit);
}
