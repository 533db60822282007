import { canonicalJson } from "../canonical-json";
import { correctAnswer, finalAssistantText, isRecord } from "../evaluator-values";
import type { EvaluatorHandler } from "../evaluator-types";
import { boolParam } from "../parameters";

/** A JSON object given as text, parsed; anything else unchanged. */
function objectOf(value: unknown): unknown {
  if (typeof value !== "string") return value;
  try {
    const parsed = JSON.parse(value);
    return isRecord(parsed) ? parsed : value;
  } catch {
    return value;
  }
}

/**
 * `auto_exact_match`: two strings that are equal (optionally ignoring case), or two objects with
 * the same keys and values (key order ignored). When one side is an object, the other side given
 * as JSON text is parsed first; the reference implementation would call that pair false.
 */
export const exactMatch: EvaluatorHandler = (call) => {
  const caseSensitive = boolParam(call.parameters, "case_sensitive", true);
  let expected = correctAnswer(call);
  let actual = finalAssistantText(call.request.outputs) ?? call.request.outputs;
  if (isRecord(expected) || isRecord(actual)) {
    expected = objectOf(expected);
    actual = objectOf(actual);
  }
  let success = false;
  if (typeof expected === "string" && typeof actual === "string") {
    success = caseSensitive ? expected === actual : expected.toLowerCase() === actual.toLowerCase();
  } else if (isRecord(expected) && isRecord(actual)) {
    success = canonicalJson(expected) === canonicalJson(actual);
  }
  return { outputs: { success } };
};
