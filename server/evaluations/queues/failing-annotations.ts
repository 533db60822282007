import { and, asc, eq, gte, inArray, isNull, lte, sql } from "drizzle-orm";
import { NotFoundError } from "@/server/core/errors";
import type { Executor } from "@/server/db";
import { evaluationQueues, evaluationResults, evaluationRuns, evaluationScenarios } from "@/server/db/schema";
import { readRunData } from "../model/run-data";

/** A person's annotation that judged an output bad, or corrected it, with what it judged. */
export interface FailingAnnotation {
  runId: string;
  scenarioId: string;
  testcaseId?: string;
  stepKey: string;
  /** The invocation's trace, when the scenario has one. */
  traceId?: string;
  inputs: unknown;
  /** The application's output the person judged (first repeat). */
  output: unknown;
  score?: number;
  success?: boolean;
  comment?: string;
  /** What the person said the output should have been (`expected` or `correction` in the annotation). */
  expected?: unknown;
}

/**
 * Annotations (cells a person wrote: `meta.annotated_by`) that fail the output (`success` false,
 * a score below 3 on the review's 1 to 5 scale) or carry a correction, oldest first, at most
 * `limit`: of one queue's run, or of the whole project, written within [oldest, newest].
 */
export async function failingAnnotations(
  db: Executor,
  projectId: string,
  filter: { queueId?: string; oldest?: Date; newest?: Date; limit: number },
): Promise<FailingAnnotation[]> {
  let runId: string | undefined;
  if (filter.queueId) {
    const [queue] = await db
      .select({ runId: evaluationQueues.runId })
      .from(evaluationQueues)
      .where(
        and(
          eq(evaluationQueues.projectId, projectId),
          eq(evaluationQueues.id, filter.queueId),
          isNull(evaluationQueues.deletedAt),
        ),
      );
    if (!queue) throw new NotFoundError(`queue ${filter.queueId} does not exist in this project`);
    runId = queue.runId;
  }
  const written = sql`coalesce(${evaluationResults.updatedAt}, ${evaluationResults.createdAt})`;
  const outputs = sql`${evaluationResults.outputs}`;
  const cells = await db
    .select()
    .from(evaluationResults)
    .where(
      and(
        eq(evaluationResults.projectId, projectId),
        runId ? eq(evaluationResults.runId, runId) : undefined,
        eq(evaluationResults.status, "success"),
        eq(evaluationResults.repeatIdx, 0),
        sql`${evaluationResults.meta} ? 'annotated_by'`,
        sql`(${outputs} ->> 'success' = 'false'
          or (jsonb_typeof(${outputs} -> 'score') = 'number' and (${outputs} ->> 'score')::float8 < 3)
          or ${outputs} ? 'expected' or ${outputs} ? 'correction')`,
        filter.oldest ? gte(written, filter.oldest) : undefined,
        filter.newest ? lte(written, filter.newest) : undefined,
      ),
    )
    .orderBy(asc(written), asc(evaluationResults.id))
    .limit(filter.limit);
  if (cells.length === 0) return [];
  const scenarioIds = [...new Set(cells.map((c) => c.scenarioId))];
  const runIds = [...new Set(cells.map((c) => c.runId))];
  const [scenarios, runs] = await Promise.all([
    db.select().from(evaluationScenarios).where(inArray(evaluationScenarios.id, scenarioIds)),
    db
      .select({ id: evaluationRuns.id, data: evaluationRuns.data })
      .from(evaluationRuns)
      .where(inArray(evaluationRuns.id, runIds)),
  ]);
  const invocationKey = new Map(
    runs.map((r) => [r.id, readRunData(r.data).steps.find((s) => s.type === "invocation")?.key]),
  );
  const invocations = await db
    .select()
    .from(evaluationResults)
    .where(and(inArray(evaluationResults.scenarioId, scenarioIds), eq(evaluationResults.repeatIdx, 0)));
  const scenarioOf = new Map(scenarios.map((s) => [s.id, s]));
  return cells.map((cell) => {
    const o = (cell.outputs ?? {}) as Record<string, unknown>;
    const invoked = invocations.find(
      (c) => c.scenarioId === cell.scenarioId && c.stepKey === invocationKey.get(cell.runId),
    );
    const expected = o.expected ?? o.correction;
    return {
      runId: cell.runId,
      scenarioId: cell.scenarioId,
      ...(cell.testcaseId ? { testcaseId: cell.testcaseId } : {}),
      stepKey: cell.stepKey,
      ...(invoked?.traceId ? { traceId: invoked.traceId } : {}),
      inputs: scenarioOf.get(cell.scenarioId)?.inputs ?? null,
      output: invoked?.outputs ?? null,
      ...(typeof o.score === "number" ? { score: o.score } : {}),
      ...(typeof o.success === "boolean" ? { success: o.success } : {}),
      ...(typeof o.comment === "string" ? { comment: o.comment } : {}),
      ...(expected !== undefined ? { expected } : {}),
    };
  });
}
