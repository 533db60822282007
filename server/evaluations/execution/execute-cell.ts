import type { AppContext } from "@/server/core/app-context";
import { AppError } from "@/server/core/errors";
import type { BatchMessage } from "@/server/streams";
import { isDatabaseUnavailable, rawQuery } from "@/server/db";
import { runEvaluator } from "@/server/evaluations/evaluators";
import { readRunData, type Step } from "../model/run-data";
import type { EvaluationRunRow } from "../model/rows";
import type { WorkCell } from "./claim-cells";
import { resolveAgentTarget, runAgentTurn, toolCallsOf } from "./agent-runner";
import { dependencyShape } from "./cell-dependencies";
import { evaluatorTrace } from "./evaluator-trace";
import type { CellOutcome } from "./invocation-outcome";
import { runMultiTurn, isMultiTurn } from "./multi-turn";
import { oncePerRun } from "./once-per-run";
import { runPrompt } from "./prompt-runner";
import { applicationTarget, evaluatorTarget, type ApplicationTarget } from "./step-targets";
import { agentMessages as agentMessagesOf } from "./test-input";

/** The invocation output an evaluator cell scores, when the worker still holds it (it just recorded it). */
export interface Upstream {
  outputs: unknown;
  traceId: string | null;
}

/**
 * Runs one claimed cell: the application on the testcase, or an evaluator on the application's
 * output (`upstream`, or read from the invocation's cell).
 */
export async function executeCell(
  app: AppContext,
  run: EvaluationRunRow,
  cell: WorkCell,
  signal: AbortSignal,
  known?: Upstream,
): Promise<CellOutcome> {
  const started = performance.now();
  try {
    const step = readRunData(run.data).steps.find((s) => s.key === cell.stepKey);
    if (!step)
      return {
        status: "failure",
        error: { code: "unknown_step", message: `the run has no step "${cell.stepKey}" any more` },
        latencyMs: 0,
      };
    const inputs = cell.inputs;
    if (step.type === "invocation") {
      const target = await applicationTarget(app.db, run.projectId, step);
      if (target.kind === "mock") return await runMockApplication(app, run, target, inputs, signal, started);
      if (target.kind === "prompt")
        return await runPrompt(app, { projectId: run.projectId, ...target }, inputs, signal, `${run.id}/${step.key}`);
      const principal = { projectId: run.projectId, userId: run.createdById ?? run.id, role: "member" as const };
      const resolved = () =>
        oncePerRun(`${run.id}/${step.key}`, () => resolveAgentTarget(app, principal, target.agent));
      if (isMultiTurn(inputs)) return await runMultiTurn(app, principal, target.agent, inputs, signal, resolved);
      return await runAgentTurn(app, principal, target.agent, agentMessagesOf(inputs), signal, resolved);
    }
    const { invocation, shared } = dependencyShape(run);
    // What the evaluator scores: the application's output, or without one the row's own (a
    // trace's outputs; nothing for a testcase).
    const inputKeys = readRunData(run.data)
      .steps.filter((s) => s.type === "input")
      .map((s) => s.key);
    const upstream =
      known ??
      (await readUpstream(app, cell, invocation ? [invocation.key] : inputKeys, Boolean(invocation) && shared));
    return await scoreOutput(app, run, step, inputs, upstream, signal, started);
  } catch (error) {
    // A database down for now is not the cell's failure: unrecorded, it runs again once its lease ends.
    if (isDatabaseUnavailable(error)) throw error;
    // A refusal keeps its code (`not_invocable`, `no_evaluator_uri`): the cell says why it failed.
    const code = error instanceof AppError ? error.code : "cell_failed";
    return {
      status: "failure",
      error: { code, message: error instanceof Error ? error.message : String(error) },
      latencyMs: performance.now() - started,
    };
  }
}

/**
 * An evaluator step's outcome on an output (`upstream`; none: it scores null): what an evaluator
 * cell records, linked to the trace it scored. A model call the evaluator makes (a judge's) is
 * traced on its own, referencing the run and the evaluator revision. `started` is when the cell's
 * time began.
 */
export async function scoreOutput(
  app: AppContext,
  run: EvaluationRunRow,
  step: Step,
  inputs: Record<string, unknown>,
  upstream: Upstream | undefined,
  signal: AbortSignal,
  started = performance.now(),
): Promise<CellOutcome> {
  const evaluator = await evaluatorTarget(app.db, run.projectId, step);
  const outputs = upstream?.outputs ?? null;
  const outcome = await runEvaluator(
    { app, projectId: run.projectId, signal, traceAs: evaluatorTrace(run.id, step) },
    {
      uri: evaluator.uri,
      data: evaluator.data,
      inputs,
      outputs,
      ...(upstream?.traceId
        ? { trace: { trace_id: upstream.traceId, toolCalls: toolCallsOf(messagesOf(outputs)) } }
        : {}),
    },
  );
  const latencyMs = performance.now() - started;
  if (outcome.status === "failure")
    return { status: "failure", error: outcome.error, traceId: upstream?.traceId ?? undefined, latencyMs };
  const usage = outcome.usage;
  const tokens =
    usage && (usage.promptTokens !== undefined || usage.completionTokens !== undefined)
      ? (usage.promptTokens ?? 0) + (usage.completionTokens ?? 0)
      : undefined;
  // An evaluator cell links to the invocation it scored.
  return {
    status: "success",
    outputs: outcome.outputs,
    traceId: upstream?.traceId ?? undefined,
    latencyMs,
    tokens,
    costUsd: usage?.costUsd,
  };
}

/** The mock as an application: its outputs are the invocation's, no model and no trace. */
async function runMockApplication(
  app: AppContext,
  run: EvaluationRunRow,
  target: Extract<ApplicationTarget, { kind: "mock" }>,
  inputs: Record<string, unknown>,
  signal: AbortSignal,
  started: number,
): Promise<CellOutcome> {
  const outcome = await runEvaluator(
    { app, projectId: run.projectId, signal },
    { uri: target.uri, data: target.data, inputs, outputs: null },
  );
  const latencyMs = performance.now() - started;
  return outcome.status === "failure"
    ? { status: "failure", error: outcome.error, latencyMs }
    : { status: "success", outputs: outcome.outputs, latencyMs };
}

async function readUpstream(
  app: AppContext,
  cell: WorkCell,
  stepKeys: string[],
  shared: boolean,
): Promise<Upstream | undefined> {
  const [row] = await rawQuery<{ outputs: unknown; trace_id: string | null }>(
    app.db,
    `select outputs, trace_id from evaluation_results
     where scenario_id = $1::uuid and step_key = any($2::text[]) and repeat_idx = $3::int limit 1`,
    [cell.scenarioId, pgTextArray(stepKeys), shared ? 0 : cell.repeatIdx],
  );
  return row ? { outputs: row.outputs, traceId: row.trace_id } : undefined;
}

/** A PostgreSQL text[] literal. */
function pgTextArray(values: string[]): string {
  return `{${values.map((v) => `"${v.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`).join(",")}}`;
}

/** An agent's output messages: the list itself, or a multi-turn output's `messages`. */
function messagesOf(outputs: unknown): BatchMessage[] {
  if (Array.isArray(outputs)) return outputs as BatchMessage[];
  const messages = (outputs as { messages?: unknown } | null)?.messages;
  return Array.isArray(messages) ? (messages as BatchMessage[]) : [];
}
