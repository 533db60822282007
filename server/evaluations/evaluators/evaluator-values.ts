import { missingInput, invalidOutputs } from "./evaluator-failure";
import type { EvaluatorCall } from "./evaluator-types";
import { stringParam } from "./parameters";

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The testcase columns, with an `{inputs: {...}}` wrapper lifted as the reference implementation does. */
export function testcaseInputs(inputs: Record<string, unknown>): Record<string, unknown> {
  const keys = Object.keys(inputs);
  return keys.length === 1 && keys[0] === "inputs" && isRecord(inputs.inputs) ? inputs.inputs : inputs;
}

/** The column `correct_answer_key` names (default `correct_answer`); its absence is an error. */
export function correctAnswer(call: EvaluatorCall): unknown {
  const key = stringParam(call.parameters, "correct_answer_key", "correct_answer");
  const inputs = testcaseInputs(call.request.inputs);
  if (!(key in inputs) || inputs[key] === undefined) {
    const columns = Object.keys(inputs);
    throw missingInput(
      `the testcase has no column "${key}" (correct_answer_key); its columns are ${columns.length ? columns.join(", ") : "none"}: add the column to the testset or set correct_answer_key to the column with the expected answer`,
    );
  }
  return inputs[key];
}

interface NativeMessage {
  role?: unknown;
  content?: unknown;
}

const isMessageList = (value: unknown): value is NativeMessage[] =>
  Array.isArray(value) && value.length > 0 && value.every((m) => isRecord(m) && typeof m.role === "string");

/**
 * The agent's final answer when the outputs are its messages (a list, or `{messages: [...]}`):
 * the last assistant message with text. Undefined when the outputs are not messages.
 */
export function finalAssistantText(outputs: unknown): string | undefined {
  const list = isMessageList(outputs)
    ? outputs
    : isRecord(outputs) && isMessageList(outputs.messages)
      ? outputs.messages
      : undefined;
  if (!list) return undefined;
  for (let i = list.length - 1; i >= 0; i--) {
    const message = list[i];
    if (message.role === "assistant" && typeof message.content === "string" && message.content !== "")
      return message.content;
  }
  return "";
}

/**
 * The output as text, for the string evaluators: a string as is, an agent's messages as its final
 * answer, any other value as JSON (the reference implementation JSON-dumps dicts). No output is an
 * error.
 */
export function outputText(outputs: unknown): string {
  if (outputs === undefined || outputs === null) throw invalidOutputs("the application returned no output to evaluate");
  if (typeof outputs === "string") return outputs;
  return finalAssistantText(outputs) ?? JSON.stringify(outputs);
}

/** Parses text as JSON when it is text; other values are already parsed. Undefined when unparsable. */
export function asJson(value: unknown): unknown {
  if (typeof value !== "string")
    return finalAssistantText(value) !== undefined ? asJson(finalAssistantText(value)) : value;
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
}

export { isRecord };
