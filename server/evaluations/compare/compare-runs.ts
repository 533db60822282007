import { and, asc, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import { BadRequestError } from "@/server/core/errors";
import type { Database } from "@/server/db";
import { evaluationResults, evaluationScenarios } from "@/server/db/schema";
import { runMetrics } from "../metrics/refresh-metrics";
import { readRunData } from "../model/run-data";
import { findRunOutline } from "../store/run-store";

const scoresWire = z.record(z.string(), z.number());

/** What `compareRuns` answers: absent scores and deltas are left out. */
export const comparisonWire = z.strictObject({
  baseline_run_id: z.string(),
  evaluators: z.array(z.string()),
  runs: z.array(
    z.strictObject({
      id: z.string(),
      name: z.string().nullable(),
      /** What the run evaluated ("agent v2"), when the playground started it. */
      evaluated: z.string().optional(),
      status: z.string(),
      scores: scoresWire,
      deltas: scoresWire,
      metrics: z.record(z.string(), z.unknown()),
    }),
  ),
  testcases: z.array(
    z.strictObject({
      testcase_id: z.string().optional(),
      inputs: z.unknown(),
      runs: z.array(
        z.strictObject({
          run_id: z.string(),
          scenario_id: z.string().optional(),
          status: z.string().optional(),
          trace_id: z.string().optional(),
          outputs: z.unknown(),
          scores: scoresWire,
          deltas: scoresWire,
        }),
      ),
    }),
  ),
});

/** The score one evaluator gave one testcase: `score` when numeric, else `success` as 1 or 0. */
export function scoreOf(outputs: unknown): number | undefined {
  if (!outputs || typeof outputs !== "object") return undefined;
  const { score, success } = outputs as { score?: unknown; success?: unknown };
  if (typeof score === "number") return score;
  if (typeof score === "boolean") return score ? 1 : 0;
  if (typeof success === "boolean") return success ? 1 : 0;
  return undefined;
}

const mean = (values: number[]) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : undefined);

/** The evaluator of a step, named across runs by its evaluator artifact (slug), since revisions differ per run. */
function evaluatorName(step: { key: string; references: Record<string, { slug?: string }> }): string {
  return step.references.evaluator?.slug ?? step.key;
}

/**
 * Two or more runs over the same testcases, side by side. Per testcase: each run's output (its
 * first repeat's), each evaluator's score (mean over repeats) and the delta against the first
 * run, the baseline. Per run: the global metrics and, per evaluator, the mean score and its delta.
 * Testcases are matched by testcase id, or by position for testcases given inline.
 */
export async function compareRuns(db: Database, projectId: string, runIds: string[]) {
  if (new Set(runIds).size < 2)
    throw new BadRequestError(
      "compare needs at least two different run_ids; the first is the baseline",
      "too_few_runs",
    );
  const runs = [];
  for (const id of runIds) {
    const run = await findRunOutline(db, projectId, id);
    if (!run) throw new BadRequestError(`run_ids: run ${id} does not exist in this project`, "unknown_run");
    runs.push(run);
  }
  const perRun = await Promise.all(
    runs.map(async (run) => {
      const data = readRunData(run.data);
      const invocation = data.steps.find((s) => s.type === "invocation");
      const evaluators = data.steps.filter((s) => s.type === "annotation");
      const scenarios = await db
        .select()
        .from(evaluationScenarios)
        .where(eq(evaluationScenarios.runId, run.id))
        .orderBy(asc(evaluationScenarios.id));
      const cells = await db
        .select()
        .from(evaluationResults)
        .where(
          and(
            eq(evaluationResults.runId, run.id),
            inArray(evaluationResults.stepKey, [
              ...(invocation ? [invocation.key] : []),
              ...evaluators.map((e) => e.key),
            ]),
          ),
        );
      const rows = new Map<
        string,
        {
          scenarioId: string;
          inputs: unknown;
          output?: unknown;
          status?: string;
          traceId?: string | null;
          scores: Record<string, number | undefined>;
        }
      >();
      scenarios.forEach((s, index) =>
        rows.set(s.testcaseId ?? `#${index}`, { scenarioId: s.id, inputs: s.inputs, scores: {} }),
      );
      const byScenario = new Map(scenarios.map((s, index) => [s.id, s.testcaseId ?? `#${index}`]));
      for (const e of evaluators) {
        for (const [key, row] of rows) {
          const values = cells
            .filter((c) => c.stepKey === e.key && byScenario.get(c.scenarioId) === key)
            .map((c) => scoreOf(c.outputs))
            .filter((v): v is number => v !== undefined);
          row.scores[evaluatorName(e)] = mean(values);
        }
      }
      for (const c of cells.filter((c) => c.stepKey === invocation?.key && c.repeatIdx === 0)) {
        const row = rows.get(byScenario.get(c.scenarioId)!)!;
        Object.assign(row, { output: c.outputs, status: c.status, traceId: c.traceId });
      }
      const metrics = await runMetrics(db, run);
      const scores: Record<string, number | undefined> = {};
      for (const e of evaluators)
        scores[evaluatorName(e)] = mean(
          [...rows.values()].map((r) => r.scores[evaluatorName(e)]).filter((v): v is number => v !== undefined),
        );
      return { run, rows, metrics, scores };
    }),
  );
  const [baseline] = perRun;
  const evaluatorNames = [...new Set(perRun.flatMap((p) => Object.keys(p.scores)))];
  const delta = (value: number | undefined, base: number | undefined) =>
    value !== undefined && base !== undefined ? value - base : undefined;
  const testcases = [...baseline.rows.keys()].map((key) => ({
    ...(key.startsWith("#") ? {} : { testcase_id: key }),
    inputs: baseline.rows.get(key)!.inputs,
    runs: perRun.map((p) => {
      const row = p.rows.get(key);
      return {
        run_id: p.run.id,
        scenario_id: row?.scenarioId,
        status: row?.status,
        trace_id: row?.traceId ?? undefined,
        outputs: row?.output,
        scores: row?.scores ?? {},
        deltas: Object.fromEntries(
          evaluatorNames.map((e) => [e, delta(row?.scores[e], baseline.rows.get(key)!.scores[e])]),
        ),
      };
    }),
  }));
  return {
    baseline_run_id: baseline.run.id,
    evaluators: evaluatorNames,
    runs: perRun.map((p) => ({
      id: p.run.id,
      name: p.run.name,
      ...(typeof p.run.meta?.evaluated === "string" ? { evaluated: p.run.meta.evaluated } : {}),
      status: p.run.status,
      scores: p.scores,
      deltas: Object.fromEntries(evaluatorNames.map((e) => [e, delta(p.scores[e], baseline.scores[e])])),
      metrics: p.metrics,
    })),
    testcases,
  };
}
