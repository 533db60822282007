import { EvaluatorFailure, missingInput } from "../evaluator-failure";
import { isRecord, testcaseInputs } from "../evaluator-values";
import type { EvaluatorCall, EvaluatorHandler } from "../evaluator-types";
import { boolParam, checkThreshold, enumParam, stringParam } from "../parameters";
import { scoreTrajectory, type ToolCallStep } from "../tool-trajectory";

export const DEFAULT_EXPECTED_KEY = "expected_tool_calls";
const MAX_CALLS = 1_000;

/** An expected call: a tool name, or `{name, input | arguments | args}`. */
function expectedStep(value: unknown, index: number, key: string): ToolCallStep {
  if (typeof value === "string" && value !== "") return { name: value };
  if (isRecord(value) && typeof value.name === "string" && value.name !== "") {
    const input = value.input ?? value.arguments ?? value.args;
    return input === undefined ? { name: value.name } : { name: value.name, input };
  }
  throw missingInput(
    `column "${key}" item ${index} must be a tool name or {"name": ..., "input": {...}}; got ${JSON.stringify(value)}`,
  );
}

function expectedCalls(call: EvaluatorCall): ToolCallStep[] {
  const key = stringParam(call.parameters, "expected_tool_calls_key", DEFAULT_EXPECTED_KEY);
  const inputs = testcaseInputs(call.request.inputs);
  let value = inputs[key];
  if (value === undefined || value === null) {
    throw missingInput(
      `the testcase has no column "${key}" (expected_tool_calls_key) with the expected tool calls; add it, e.g. ["search", {"name": "fetch", "input": {"url": "..."}}]`,
    );
  }
  if (typeof value === "string") {
    const text = value;
    try {
      value = JSON.parse(text);
    } catch {
      throw missingInput(
        `column "${key}" holds text that is not a JSON list of tool calls: ${JSON.stringify(text.slice(0, 200))}`,
      );
    }
  }
  if (!Array.isArray(value))
    throw missingInput(`column "${key}" must be a list of tool calls; got ${JSON.stringify(value)}`);
  return value.map((step, i) => expectedStep(step, i, key));
}

/**
 * The calls the agent made, in order: the trace's `toolCalls` (the engine's extraction), else the
 * tool-call messages of the native output (role tool with tool_name and input), else none when
 * there is a trace (a run that called no tool).
 */
function actualCalls(call: EvaluatorCall): ToolCallStep[] {
  const { trace, outputs } = call.request;
  if (trace?.toolCalls) return trace.toolCalls.map((c) => ({ name: c.name, input: c.input }));
  const messages = Array.isArray(outputs)
    ? outputs
    : isRecord(outputs) && Array.isArray(outputs.messages)
      ? outputs.messages
      : undefined;
  if (!messages) {
    if (trace) return [];
    throw new EvaluatorFailure(
      "invalid_outputs",
      "there are no tool calls to score: the cell has no agent trace and the output is not an agent's messages; use trajectory_match on agent applications",
    );
  }
  return messages
    .filter(
      (m): m is Record<string, unknown> =>
        isRecord(m) && m.role === "tool" && typeof m.tool_name === "string" && "input" in m,
    )
    .map((m) => ({ name: m.tool_name as string, input: m.input }));
}

/**
 * `trajectory_match` (ours): scores the agent's tool calls against the expected list in a testcase
 * column: `mode` exact, in_order (the expected calls in that order, others allowed between) or
 * any_order; `compare_arguments` also checks the arguments the expectation gives.
 */
export const trajectoryMatch: EvaluatorHandler = (call) => {
  const mode = enumParam(call.parameters, "mode", ["exact", "in_order", "any_order"] as const, "in_order");
  const compareArguments = boolParam(call.parameters, "compare_arguments", false);
  const threshold =
    call.parameters.threshold === undefined ? 1 : checkThreshold(call.parameters.threshold, "threshold");
  const expected = expectedCalls(call);
  const actual = actualCalls(call);
  if (expected.length > MAX_CALLS || actual.length > MAX_CALLS) {
    throw new EvaluatorFailure(
      "input_too_large",
      `trajectories of more than ${MAX_CALLS} tool calls are not scored (expected ${expected.length}, made ${actual.length})`,
    );
  }
  const { score, diff } = scoreTrajectory(expected, actual, mode, compareArguments);
  return { outputs: { score, success: score >= threshold, diff } };
};
