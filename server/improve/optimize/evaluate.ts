import type { Database } from "@/server/db";
import {
  createSimpleEvaluation,
  evaluationTable,
  getSimpleEvaluation,
  querySimpleEvaluations,
  stopSimpleEvaluation,
} from "@/server/evaluations";
import type { Scope } from "@/server/versioning";
import { median } from "./seeded";

export type SplitName = "train" | "holdout";

export interface Testcase {
  id: string;
  data: Record<string, unknown>;
}

/** What one candidate did on one testcase: the mean over evaluators and what they said. */
export interface CaseScore {
  score: number;
  input: unknown;
  output?: unknown;
  feedback: string[];
  cost_usd?: number;
  latency_ms?: number;
}

export interface RunScore {
  score: number;
  cases: Record<string, CaseScore>;
  costUsd: number;
  costPerCase?: number;
  latencyP50?: number;
}

/**
 * The evaluation run of a candidate on a split, made once: runs carry the candidate and split in
 * `meta`, so a worker that resumes after a crash between creating the run and recording its id
 * finds it instead of creating another. Testcases go inline, in split order: the engine mints
 * scenarios in row order with time-ordered ids, which is the order `evaluationTable` reads back.
 */
export async function ensureRun(
  db: Database,
  scope: Scope,
  request: {
    optimizationId: string;
    candidateId: string;
    split: SplitName;
    name: string;
    revisionId: string;
    evaluatorRevisionIds: string[];
    testcases: Testcase[];
  },
): Promise<string> {
  const meta = {
    improve_optimization_id: request.optimizationId,
    improve_candidate_id: request.candidateId,
    improve_split: request.split,
  };
  const found = await querySimpleEvaluations(db, scope.projectId, { meta }, { limit: 1 });
  if (found.items[0]) return found.items[0].id;
  const run = await createSimpleEvaluation(db, scope, {
    name: request.name,
    meta: { ...meta, application_revision_id: request.revisionId },
    data: {
      testcases: request.testcases.map((t) => t.data),
      application_steps: [request.revisionId],
      evaluator_steps: request.evaluatorRevisionIds,
      repeats: 1,
    },
  });
  return run.id;
}

const FINISHED = new Set(["success", "errors", "failure"]);

export interface RunState {
  finished: boolean;
  /** Stopped by someone else: the optimization cannot trust its scores. */
  stopped: boolean;
  cellsDone: number;
  cellsTotal: number;
}

export async function runState(db: Database, projectId: string, runId: string): Promise<RunState> {
  const run = await getSimpleEvaluation(db, projectId, runId);
  const status = run?.data.status ?? "cancelled";
  return {
    finished: FINISHED.has(status),
    stopped: !run || status === "cancelled",
    cellsDone: run?.progress?.cells_done ?? 0,
    cellsTotal: run?.progress?.cells_total ?? 0,
  };
}

export async function stopRun(db: Database, projectId: string, runId: string): Promise<void> {
  const state = await runState(db, projectId, runId);
  if (!state.finished && !state.stopped) await stopSimpleEvaluation(db, projectId, runId);
}

const clip = (value: unknown, max = 2000): unknown => {
  const text = typeof value === "string" ? value : JSON.stringify(value ?? null);
  return text.length <= max ? value : `${text.slice(0, max)}…`;
};

function feedbackOf(name: string, verdict: { score?: number; outputs?: unknown; error?: unknown }): string {
  const outputs = (verdict.outputs ?? {}) as Record<string, unknown>;
  const reason = outputs.reason ?? outputs.explanation ?? outputs.comment ?? outputs.message;
  const error = verdict.error as { message?: string } | undefined;
  const score = verdict.score === undefined ? "no score" : `score ${verdict.score}`;
  return `${name}: ${score}${reason ? ` — ${String(reason)}` : ""}${error?.message ? ` (error: ${error.message})` : ""}`;
}

/**
 * A finished run's scores by testcase (the rows in split order): each case scores the mean of its
 * evaluators' scores (0..1; an evaluator with no score, or an invocation that failed, counts 0),
 * the run scores the mean over cases. Cost and latency are the invocation cells'.
 */
export async function scoreRun(db: Database, projectId: string, runId: string, testcases: Testcase[]) {
  const table = await evaluationTable(db, projectId, runId);
  const cases: Record<string, CaseScore> = {};
  let cost = 0;
  const latencies: number[] = [];
  table.rows.forEach((row, i) => {
    const testcase = testcases[i];
    if (!testcase) return;
    const verdicts = Object.entries(row.scores);
    const scores = verdicts.map(([, v]) => (row.output_status === "success" ? (v.score ?? 0) : 0));
    const score = scores.length ? scores.reduce((a, b) => a + b, 0) / scores.length : 0;
    cost += row.cost_usd ?? 0;
    if (row.latency_ms !== undefined) latencies.push(row.latency_ms);
    cases[testcase.id] = {
      score,
      input: clip(row.inputs),
      ...(row.output !== undefined ? { output: clip(row.output) } : {}),
      feedback: verdicts.map(([name, v]) => feedbackOf(name, v)),
      ...(row.cost_usd !== undefined ? { cost_usd: row.cost_usd } : {}),
      ...(row.latency_ms !== undefined ? { latency_ms: row.latency_ms } : {}),
    };
  });
  const values = Object.values(cases).map((c) => c.score);
  return {
    score: values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0,
    cases,
    costUsd: cost,
    ...(table.rows.length ? { costPerCase: cost / table.rows.length } : {}),
    ...(latencies.length ? { latencyP50: median(latencies) } : {}),
  } satisfies RunScore;
}

/** What an unfinished run has cost so far (its invocation cells), for the spend cap. */
export async function runCostSoFar(db: Database, projectId: string, runId: string): Promise<number> {
  const table = await evaluationTable(db, projectId, runId);
  return table.rows.reduce((sum, row) => sum + (row.cost_usd ?? 0), 0);
}
