import { canonicalJson } from "../canonical-json";
import { invalidParameter, missingInput } from "../evaluator-failure";
import { asJson, correctAnswer } from "../evaluator-values";
import type { EvaluatorHandler } from "../evaluator-types";
import { parsePath, selectPath } from "../json-path";
import { stringParam } from "../parameters";

/** Equal as JSON, or equal as text when one side is a string (testset columns are text). */
function sameValue(expected: unknown, actual: unknown): boolean {
  if (canonicalJson(expected) === canonicalJson(actual)) return true;
  const text = (v: unknown) => (typeof v === "string" ? v : canonicalJson(v));
  return (typeof expected === "string" || typeof actual === "string") && text(expected) === text(actual);
}

/**
 * `field_match_test`: the output's JSON field `json_field` equals the expected answer. An output
 * that is not JSON, or lacks the field, scores false (not an error), as in the
 * reference implementation.
 */
export const fieldMatch: EvaluatorHandler = (call) => {
  const field = stringParam(call.parameters, "json_field");
  const expected = correctAnswer(call);
  const selected = selectPath(asJson(call.request.outputs), parsePath(field, "json_field"));
  return { outputs: { success: selected.found && sameValue(expected, selected.value) } };
};

/**
 * `json_multi_field_match`: each field of `fields` scores 1 when the output's value at that path
 * equals the expected answer's, else 0; `aggregate_score` is the fraction that matched. An output
 * that is not JSON scores 0 everywhere; an expected answer that is not JSON is an error.
 */
export const jsonMultiFieldMatch: EvaluatorHandler = (call) => {
  const fields = call.parameters.fields;
  if (!Array.isArray(fields) || fields.length === 0 || fields.some((f) => typeof f !== "string" || f === "")) {
    throw invalidParameter(
      `parameter fields must be a non-empty list of paths (dot, JSONPath or JSON pointer), e.g. ["name", "address.city"]; got ${JSON.stringify(fields)}`,
    );
  }
  const expected = asJson(correctAnswer(call));
  if (typeof expected !== "object" || expected === null) {
    throw missingInput(
      `the expected answer (correct_answer_key) must be a JSON object or JSON text of one, to read the fields from; got ${JSON.stringify(correctAnswer(call))}`,
    );
  }
  const actual = asJson(call.request.outputs);
  const outputs: Record<string, unknown> = {};
  let matched = 0;
  for (const field of fields as string[]) {
    const steps = parsePath(field, "fields");
    const want = selectPath(expected, steps);
    const got = selectPath(actual, steps);
    const score = want.found && got.found && sameValue(want.value, got.value) ? 1 : 0;
    outputs[field] = score;
    matched += score;
  }
  outputs.aggregate_score = matched / fields.length;
  return { outputs };
};
