import { missingInput } from "../evaluator-failure";
import { asJson, correctAnswer, isRecord } from "../evaluator-values";
import type { EvaluatorHandler } from "../evaluator-types";
import { jsonDiffScore } from "../json-diff-score";
import { boolParam, thresholdParam } from "../parameters";

/**
 * `auto_json_diff`: the share of the expected answer's keys (with `predict_keys`, of both sides'
 * keys) whose values the output reproduces; with `compare_schema_only`, whose value types. An
 * output that is not a JSON object scores 0.
 */
export const jsonDiff: EvaluatorHandler = (call) => {
  const schemaOnly = boolParam(call.parameters, "compare_schema_only", false);
  const predictKeys = boolParam(call.parameters, "predict_keys", false);
  const lowerKeys = boolParam(call.parameters, "case_insensitive_keys", false);
  const threshold = thresholdParam(call.parameters);
  const expected = asJson(correctAnswer(call));
  if (!isRecord(expected)) {
    throw missingInput(
      `the expected answer (correct_answer_key) must be a JSON object or JSON text of one; got ${JSON.stringify(correctAnswer(call))}`,
    );
  }
  const score = jsonDiffScore(expected, asJson(call.request.outputs), { schemaOnly, predictKeys, lowerKeys });
  return { outputs: { score, success: score >= threshold } };
};
