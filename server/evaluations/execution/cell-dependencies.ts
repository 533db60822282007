import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Executor } from "@/server/db";
import { evaluationResults } from "@/server/db/schema";
import { readRunData } from "../model/run-data";
import type { EvaluationRunRow } from "../model/rows";
import { isExecutable, sharedInvocation } from "./plan-cells";

/** The run's invocation step and its executable evaluator steps. */
export function dependencyShape(run: EvaluationRunRow) {
  const data = readRunData(run.data);
  const invocation = data.steps.find((s) => s.type === "invocation");
  const evaluators = data.steps.filter((s) => s.type === "annotation" && isExecutable(s)).map((s) => s.key);
  return { invocation, evaluators, shared: sharedInvocation(data, run.flags) };
}

/**
 * Evaluator cells waiting (`due_at` null) whose invocation cell ended: due now when it
 * succeeded; a failure when it failed, so no cell is left waiting on an output that will not come.
 */
export async function settleDependents(
  tx: Executor,
  run: EvaluationRunRow,
  now: Date,
  scenarioId?: string,
  only?: "success" | "failure",
): Promise<number> {
  const { invocation, evaluators, shared } = dependencyShape(run);
  if (evaluators.length === 0) return 0;
  const a = evaluationResults;
  const waiting = and(
    eq(a.runId, run.id),
    eq(a.status, "queued"),
    isNull(a.dueAt),
    inArray(a.stepKey, evaluators),
    scenarioId ? eq(a.scenarioId, scenarioId) : undefined,
  );
  if (!invocation) {
    const released = await tx.update(a).set({ dueAt: now }).where(waiting).returning({ id: a.id });
    return released.length;
  }
  const upstream = (
    status: string,
  ) => sql`exists (select 1 from evaluation_results i where i.run_id = ${a.runId} and i.scenario_id = ${a.scenarioId}
    and i.step_key = ${invocation.key} and i.repeat_idx = ${shared ? sql`0` : sql`${a.repeatIdx}`} and i.status = ${status})`;
  const released =
    only === "failure"
      ? []
      : await tx
          .update(a)
          .set({ dueAt: now, updatedAt: now })
          .where(and(waiting, upstream("success")))
          .returning({ id: a.id });
  if (only === "success") return released.length;
  await tx
    .update(a)
    .set({
      status: "failure",
      error: {
        code: "invocation_failed",
        message: `the application step "${invocation.key}" failed for this testcase; see its cell`,
      },
      updatedAt: now,
    })
    .where(and(waiting, upstream("failure")));
  return released.length;
}
