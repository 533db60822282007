import { and, count, eq, inArray, ne, sql } from "drizzle-orm";
import { NotFoundError } from "@/server/core/errors";
import { newId } from "@/server/core/ids";
import { rawQuery, type Database, type Executor } from "@/server/db";
import { evaluationResults, evaluationRuns, evaluationScenarios } from "@/server/db/schema";
import type { Scope } from "@/server/versioning";
import { ClosedRunError } from "../model/closed-run-error";
import { readRunData } from "../model/run-data";
import type { EvaluationRunRow } from "../model/rows";
import { settleDependents } from "./cell-dependencies";
import { notifyEvaluationWorkers } from "./channel";
import { isExecutable, planScenarioCells } from "./plan-cells";
import { emitRunEvent } from "./run-events";
import { finalizeIfDone } from "./settle";
import { floorToMinute } from "./live-window";
import { sourceItems, type SourceItem } from "./source-items";
import { validateGraph } from "./validate-graph";

const CHUNK = 500;

/**
 * A chunk of scenarios and all their cells in one statement, the rows as JSON ($7 scenarios, $8
 * cells): building a multi-row insert through the query builder cost more CPU than running it.
 * $1 project, $2 run, $3 scenario status, $4 timestamp, $5 interval, $6 now.
 */
const MINT = `
with s as (
  insert into evaluation_scenarios (id, project_id, run_id, status, testcase_id, inputs, timestamp, interval,
    created_at, updated_at)
  select x.id, $1::uuid, $2::uuid, $3, x.testcase_id, x.inputs, $4::timestamptz, $5::int, $6::timestamptz,
    $6::timestamptz
  from jsonb_to_recordset($7::text::jsonb) as x(id uuid, testcase_id uuid, inputs jsonb)
)
insert into evaluation_results (id, project_id, run_id, scenario_id, step_key, repeat_idx, status, testcase_id,
  trace_id, outputs, timestamp, interval, due_at, created_at, updated_at)
select c.id, $1::uuid, $2::uuid, c.scenario_id, c.step_key, c.repeat_idx, c.status, c.testcase_id, c.trace_id,
  c.outputs, $4::timestamptz, $5::int, case when c.due then $6::timestamptz end, $6::timestamptz, $6::timestamptz
from jsonb_to_recordset($8::text::jsonb)
  as c(id uuid, scenario_id uuid, step_key text, repeat_idx int, status text, testcase_id uuid, trace_id text,
    outputs jsonb, due boolean)`;

/**
 * Starts a run: checks the graph, mints one scenario per source row with all its cells (first
 * start) or queues again the cells that did not succeed (a stopped or finished run started
 * again), then marks it running and active. From then on the workers own it.
 */
export async function startRun(db: Database, scope: Scope, runId: string, now = new Date()): Promise<EvaluationRunRow> {
  const started = await db.transaction(async (tx) => {
    const [run] = await tx
      .select()
      .from(evaluationRuns)
      .where(and(eq(evaluationRuns.projectId, scope.projectId), eq(evaluationRuns.id, runId)))
      .for("update");
    if (!run) throw new NotFoundError(`evaluation run ${runId} does not exist in this project`);
    if (run.flags.is_closed) throw new ClosedRunError(run.id);
    const data = readRunData(run.data);
    await validateGraph(tx, scope.projectId, data, run.flags);
    const [{ scenarios }] = await tx
      .select({ scenarios: count() })
      .from(evaluationScenarios)
      .where(eq(evaluationScenarios.runId, run.id));
    const live = Boolean(run.flags.is_live);
    // A live run's rows come from its ticks (live-ticks.ts), never from the start.
    if (scenarios === 0 && !live) await mintScenarios(tx, run, await sourceItems(tx, run.projectId, data), now);
    else if (scenarios > 0)
      await requeueCells(
        tx,
        run,
        { overwrite: !live && (run.status === "success" || run.status === "errors" || run.status === "failure") },
        now,
      );
    const timeout = data.concurrency?.timeout;
    const [updated] = await tx
      .update(evaluationRuns)
      .set({
        status: "running",
        flags: { ...run.flags, is_active: true },
        startedAt: now,
        deadlineAt: timeout && !live ? new Date(now.getTime() + timeout * 1000) : null,
        // The first tick evaluates the traces from this minute on, not those of a stopped spell.
        tickedAt: live ? floorToMinute(now) : run.tickedAt,
        updatedAt: now,
        updatedById: scope.userId,
      })
      .where(eq(evaluationRuns.id, run.id))
      .returning();
    const [{ cells }] = await tx
      .select({ cells: count() })
      .from(evaluationResults)
      .where(eq(evaluationResults.runId, run.id));
    await emitRunEvent(tx, "evaluations.runs.started", updated, { cells });
    await notifyEvaluationWorkers(tx);
    return updated;
  });
  // A run with nothing to execute (every cell already done) ends here.
  return (await finalizeIfDone(db, started.id, now)) ?? started;
}

/** Where a live tick's scenarios sit in time: the window's start and its length in minutes. */
export interface ScenarioTime {
  timestamp: Date;
  interval: number;
}

/**
 * One scenario per source row, with all its cells: input cells done at once (carrying the source
 * trace and what it gave), the others as planned. A live tick's rows carry the window's time.
 */
export async function mintScenarios(
  tx: Executor,
  run: EvaluationRunRow,
  items: SourceItem[],
  now: Date,
  time?: ScenarioTime,
): Promise<number> {
  const data = readRunData(run.data);
  const plan = planScenarioCells(data, run.flags);
  const inputKeys = new Set(data.steps.filter((s) => s.type === "input").map((s) => s.key));
  const status = plan.some((c) => c.status === "queued") ? "running" : "pending";
  for (let i = 0; i < items.length; i += CHUNK) {
    const chunk = items.slice(i, i + CHUNK);
    const scenarios = chunk.map((item) => ({ id: newId(), testcase_id: item.testcaseId ?? null, inputs: item.inputs }));
    const cells = scenarios.flatMap((s, k) =>
      plan.map((c) => {
        const input = inputKeys.has(c.stepKey);
        return {
          id: newId(),
          scenario_id: s.id,
          step_key: c.stepKey,
          repeat_idx: c.repeatIdx,
          status: c.status,
          testcase_id: s.testcase_id,
          trace_id: input ? (chunk[k].traceId ?? null) : null,
          // Any JSON value, strings included: a jsonb column of the record set takes it as it is.
          outputs: input ? (chunk[k].outputs ?? null) : null,
          due: c.due,
        };
      }),
    );
    await rawQuery(tx, MINT, [
      run.projectId,
      run.id,
      status,
      time?.timestamp.toISOString() ?? null,
      time?.interval ?? null,
      now.toISOString(),
      JSON.stringify(scenarios),
      JSON.stringify(cells),
    ]);
  }
  return items.length;
}

export interface CellSlice {
  scenario_ids?: string[] | null;
  step_keys?: string[] | null;
  repeat_idxs?: number[] | null;
}

/**
 * Queues the executable cells of a slice again: with `overwrite` every addressed cell, without
 * it the ones that did not succeed (and creates planned cells that are missing). Evaluator cells
 * wait for their invocation cell unless it already succeeded. Cells a worker holds are left to it.
 */
export async function requeueCells(
  tx: Executor,
  run: EvaluationRunRow,
  options: CellSlice & { overwrite?: boolean },
  now: Date,
): Promise<void> {
  const data = readRunData(run.data);
  const plan = planScenarioCells(data, run.flags);
  const scenarios = await tx
    .select({ id: evaluationScenarios.id, testcaseId: evaluationScenarios.testcaseId })
    .from(evaluationScenarios)
    .where(
      and(
        eq(evaluationScenarios.runId, run.id),
        options.scenario_ids ? inArray(evaluationScenarios.id, options.scenario_ids) : undefined,
      ),
    );
  if (scenarios.length === 0) return;
  const inSlice = (c: { stepKey: string; repeatIdx: number }) =>
    (!options.step_keys || options.step_keys.includes(c.stepKey)) &&
    (!options.repeat_idxs || options.repeat_idxs.includes(c.repeatIdx));
  const missing = scenarios.flatMap((s) =>
    plan.filter(inSlice).map((c) => ({
      id: newId(),
      projectId: run.projectId,
      runId: run.id,
      scenarioId: s.id,
      stepKey: c.stepKey,
      repeatIdx: c.repeatIdx,
      status: c.status,
      testcaseId: s.testcaseId,
      dueAt: null,
      createdAt: now,
      updatedAt: now,
    })),
  );
  for (let j = 0; j < missing.length; j += CHUNK * 2)
    await tx
      .insert(evaluationResults)
      .values(missing.slice(j, j + CHUNK * 2))
      .onConflictDoNothing();
  const executable = data.steps.filter(isExecutable);
  const r = evaluationResults;
  const scope = and(
    eq(r.runId, run.id),
    inArray(
      r.scenarioId,
      scenarios.map((s) => s.id),
    ),
    inArray(
      r.stepKey,
      executable.filter((s) => !options.step_keys || options.step_keys.includes(s.key)).map((s) => s.key),
    ),
    options.repeat_idxs ? inArray(r.repeatIdx, options.repeat_idxs) : undefined,
    options.overwrite
      ? ne(r.status, "running")
      : sql`(${r.status} <> 'success' and (${r.status} <> 'running' or ${r.leaseUntil} is null or ${r.leaseUntil} < ${now.toISOString()}))`,
  );
  const invocationKeys = executable.filter((s) => s.type === "invocation").map((s) => s.key);
  await tx
    .update(r)
    .set({
      status: "queued",
      dueAt: sql`case when ${r.stepKey} in ${invocationKeys.length ? invocationKeys : [""]} then ${now.toISOString()}::timestamptz else null end`,
      error: null,
      outputs: null,
      traceId: null,
      latencyMs: null,
      tokens: null,
      costUsd: null,
      leaseUntil: null,
      leaseToken: null,
      attempts: 0,
      updatedAt: now,
    })
    .where(scope);
  await settleDependents(tx, run, now);
  await tx
    .update(evaluationScenarios)
    .set({ status: "running", updatedAt: now })
    .where(
      inArray(
        evaluationScenarios.id,
        scenarios.map((s) => s.id),
      ),
    );
}
