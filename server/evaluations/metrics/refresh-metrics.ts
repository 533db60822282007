import { and, eq, inArray, sql } from "drizzle-orm";
import { newId } from "@/server/core/ids";
import type { Executor } from "@/server/db";
import { evaluationMetrics, evaluationResults } from "@/server/db/schema";
import { readRunData, type Step } from "../model/run-data";
import type { MetricsRow, EvaluationRunRow } from "../model/rows";
import { loadTraceSources, parseTraceId, storedTraceId } from "@/server/tracing";
import { computeMetrics, type MetricCell } from "./compute-metrics";

/**
 * The cells' columns metrics are computed from. Outputs are read for evaluator cells only: the
 * metrics take scores from them, and an invocation's output (an agent's messages) is the largest
 * value of a run; reading every one back once a second made a refresh grow with the outputs.
 */
function cellColumns(steps: Step[]) {
  const evaluators = steps.filter((step) => step.type === "annotation").map((step) => step.key);
  return {
    stepKey: evaluationResults.stepKey,
    status: evaluationResults.status,
    outputs: evaluators.length
      ? sql`case when ${inArray(evaluationResults.stepKey, evaluators)} then ${evaluationResults.outputs} end`.mapWith(
          evaluationResults.outputs,
        )
      : sql`null`.mapWith(evaluationResults.outputs),
    // Read only where the outputs are missing: see withTraceOutputs.
    traceId: sql<string | null>`case when ${evaluationResults.outputs} is null then ${evaluationResults.traceId} end`,
    latencyMs: evaluationResults.latencyMs,
    tokens: evaluationResults.tokens,
    costUsd: evaluationResults.costUsd,
  };
}

type ReadCell = MetricCell & { traceId: string | null };

/**
 * Evaluator cells a client wrote with their trace and no outputs (the reference's annotation
 * flow: the annotation is a trace, the result names it) take their outputs from that trace, as
 * the reference computes metrics from traces. Cells the workers write carry their outputs.
 */
async function withTraceOutputs(db: Executor, projectId: string, steps: Step[], cells: ReadCell[]) {
  const evaluators = new Set(steps.filter((step) => step.type === "annotation").map((step) => step.key));
  const traced = (cell: ReadCell) =>
    cell.status === "success" && cell.outputs == null && evaluators.has(cell.stepKey) && cell.traceId
      ? parseTraceId(cell.traceId)
      : undefined;
  const ids = cells.map(traced).filter((id): id is string => Boolean(id));
  if (ids.length === 0) return cells;
  const outputs = new Map(
    (await loadTraceSources(db, projectId, ids)).map((source) => [storedTraceId(source.traceId), source.outputs]),
  );
  return cells.map((cell) => {
    const id = traced(cell);
    return id && outputs.has(id) ? { ...cell, outputs: outputs.get(id) } : cell;
  });
}

/**
 * Recomputes and stores the metrics of a run (global) or of one of its scenarios (variational)
 * from the cells. Unlike the reference implementation, which reads them back from traces, the cells
 * carry their latency, tokens and cost (taken from the same run record the trace is written from),
 * so a refresh is one read and does not wait for trace ingest.
 */
export async function refreshMetrics(db: Executor, run: EvaluationRunRow, scenarioId?: string): Promise<MetricsRow> {
  const data = await runMetrics(db, run, scenarioId);
  const now = new Date();
  const values = {
    id: newId(),
    projectId: run.projectId,
    runId: run.id,
    scenarioId: scenarioId ?? null,
    status: "success",
    data,
    createdAt: now,
    updatedAt: now,
  };
  const [row] = await db
    .insert(evaluationMetrics)
    .values(values)
    .onConflictDoUpdate({
      target: scenarioId ? [evaluationMetrics.runId, evaluationMetrics.scenarioId] : [evaluationMetrics.runId],
      targetWhere: scenarioId
        ? sql`scenario_id is not null and timestamp is null`
        : sql`scenario_id is null and timestamp is null`,
      set: { data, status: "success", updatedAt: now },
    })
    .returning();
  return row;
}

/** The metrics of a run (or one scenario), computed from its cells and not stored. */
export async function runMetrics(db: Executor, run: EvaluationRunRow, scenarioId?: string) {
  const { steps } = readRunData(run.data);
  const cells = await db
    .select(cellColumns(steps))
    .from(evaluationResults)
    .where(
      and(eq(evaluationResults.runId, run.id), scenarioId ? eq(evaluationResults.scenarioId, scenarioId) : undefined),
    );
  return computeMetrics(steps, await withTraceOutputs(db, run.projectId, steps, cells));
}

/**
 * The temporal metrics of a live run's window (keyed by its start, `timestamp`): computed from
 * the cells minted by the tick of that window; none when the window has no cells. An `interval`
 * left undefined keeps the stored row's.
 */
export async function refreshTemporalMetrics(
  db: Executor,
  run: EvaluationRunRow,
  timestamp: Date,
  interval: number | null | undefined,
): Promise<MetricsRow | undefined> {
  const { steps } = readRunData(run.data);
  const cells = await db
    .select(cellColumns(steps))
    .from(evaluationResults)
    .where(and(eq(evaluationResults.runId, run.id), eq(evaluationResults.timestamp, timestamp)));
  if (cells.length === 0) return undefined;
  const data = computeMetrics(steps, await withTraceOutputs(db, run.projectId, steps, cells));
  const now = new Date();
  const [row] = await db
    .insert(evaluationMetrics)
    .values({
      id: newId(),
      projectId: run.projectId,
      runId: run.id,
      timestamp,
      interval: interval ?? null,
      status: "success",
      data,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoUpdate({
      target: [evaluationMetrics.runId, evaluationMetrics.timestamp],
      targetWhere: sql`timestamp is not null and scenario_id is null`,
      set: { data, ...(interval === undefined ? {} : { interval }), status: "success", updatedAt: now },
    })
    .returning();
  return row;
}
