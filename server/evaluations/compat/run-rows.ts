import { asc, eq } from "drizzle-orm";
import type { Database } from "@/server/db";
import { evaluationResults, evaluationScenarios } from "@/server/db/schema";
import { scoreOf } from "../compare/compare-runs";
import { readRunData, type Step } from "../model/run-data";
import type { ResultRow } from "../model/rows";
import { getRun } from "../store/run-store";

export interface EvaluatorScore {
  status: string;
  /** Mean over repeats of `score` (or `success` as 1 / 0). */
  score?: number;
  /** The first repeat's outputs: the verdict with its reason. */
  outputs?: unknown;
  error?: unknown;
}

export interface EvaluationRow {
  scenario_id: string;
  testcase_id?: string;
  status: string;
  inputs: unknown;
  output?: unknown;
  output_status?: string;
  output_error?: unknown;
  trace_id?: string;
  latency_ms?: number;
  tokens?: number;
  cost_usd?: number;
  scores: Record<string, EvaluatorScore>;
}

export interface EvaluationTable {
  /** Evaluators by name (their artifact slug), in the run's step order. */
  evaluators: { key: string; name: string; revision_id?: string; version?: string }[];
  application?: { name: string; revision_id?: string; version?: string };
  repeats: number;
  rows: EvaluationRow[];
}

const evaluatorName = (step: Step) => step.references.evaluator?.slug ?? step.key;

function scoreCell(cells: ResultRow[]): EvaluatorScore {
  const first = cells.find((c) => c.repeatIdx === 0) ?? cells[0];
  if (!first) return { status: "pending" };
  const scores = cells.map((c) => scoreOf(c.outputs)).filter((v): v is number => v !== undefined);
  return {
    status: first.status,
    ...(scores.length ? { score: scores.reduce((a, b) => a + b, 0) / scores.length } : {}),
    ...(first.outputs != null ? { outputs: first.outputs } : {}),
    ...(first.error != null ? { error: first.error } : {}),
  };
}

/**
 * One row per scenario (testcase) of a run: its inputs, the application's output (first repeat)
 * with what it cost, and each evaluator's score and verdict: what the results table shows.
 */
export async function evaluationTable(db: Database, projectId: string, runId: string): Promise<EvaluationTable> {
  const run = await getRun(db, projectId, runId);
  const data = readRunData(run.data);
  const invocation = data.steps.find((s) => s.type === "invocation");
  const evaluators = data.steps.filter((s) => s.type === "annotation");
  const [scenarios, cells] = await Promise.all([
    db
      .select()
      .from(evaluationScenarios)
      .where(eq(evaluationScenarios.runId, runId))
      .orderBy(asc(evaluationScenarios.id)),
    db.select().from(evaluationResults).where(eq(evaluationResults.runId, runId)),
  ]);
  const byScenario = new Map<string, ResultRow[]>();
  for (const cell of cells) byScenario.set(cell.scenarioId, [...(byScenario.get(cell.scenarioId) ?? []), cell]);
  const rows = scenarios.map((scenario): EvaluationRow => {
    const own = byScenario.get(scenario.id) ?? [];
    const output = invocation ? own.find((c) => c.stepKey === invocation.key && c.repeatIdx === 0) : undefined;
    return {
      scenario_id: scenario.id,
      ...(scenario.testcaseId ? { testcase_id: scenario.testcaseId } : {}),
      status: scenario.status,
      inputs: scenario.inputs,
      ...(output
        ? {
            output: output.outputs,
            output_status: output.status,
            ...(output.error != null ? { output_error: output.error } : {}),
            ...(output.traceId ? { trace_id: output.traceId } : {}),
            ...(output.latencyMs != null ? { latency_ms: output.latencyMs } : {}),
            ...(output.tokens != null ? { tokens: output.tokens } : {}),
            ...(output.costUsd != null ? { cost_usd: output.costUsd } : {}),
          }
        : {}),
      scores: Object.fromEntries(
        evaluators.map((e) => [evaluatorName(e), scoreCell(own.filter((c) => c.stepKey === e.key))]),
      ),
    };
  });
  return {
    evaluators: evaluators.map((e) => ({
      key: e.key,
      name: evaluatorName(e),
      revision_id: e.references.evaluator_revision?.id,
      version: e.references.evaluator_revision?.version,
    })),
    ...(invocation
      ? {
          application: {
            name: invocation.references.application?.slug ?? invocation.key,
            revision_id: invocation.references.application_revision?.id,
            version: invocation.references.application_revision?.version,
          },
        }
      : {}),
    repeats: data.repeats,
    rows,
  };
}
