import { canonicalJson } from "../canonical-json";
import { missingInput } from "../evaluator-failure";
import { asJson, correctAnswer, isRecord } from "../evaluator-values";
import type { EvaluatorHandler } from "../evaluator-types";
import { boolParam, thresholdParam } from "../parameters";

/** Nested objects as dotted keys; arrays and scalars are leaf values. */
function flatten(value: Record<string, unknown>, lowerKeys: boolean, prefix = "", out = new Map<string, unknown>()): Map<string, unknown> {
  for (const [rawKey, child] of Object.entries(value)) {
    const key = `${prefix}${lowerKeys ? rawKey.toLowerCase() : rawKey}`;
    if (isRecord(child) && Object.keys(child).length > 0) flatten(child, lowerKeys, `${key}.`, out);
    else out.set(key, child);
  }
  return out;
}

const kind = (value: unknown) => (value === null ? "null" : Array.isArray(value) ? "array" : typeof value);

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
    throw missingInput(`the expected answer (correct_answer_key) must be a JSON object or JSON text of one; got ${JSON.stringify(correctAnswer(call))}`);
  }
  const actual = asJson(call.request.outputs);
  const want = flatten(expected, lowerKeys);
  const got = isRecord(actual) ? flatten(actual, lowerKeys) : new Map<string, unknown>();
  const keys = predictKeys ? new Set([...want.keys(), ...got.keys()]) : new Set(want.keys());
  let matched = 0;
  for (const key of keys) {
    if (!want.has(key) || !got.has(key)) continue;
    const a = want.get(key);
    const b = got.get(key);
    if (schemaOnly ? kind(a) === kind(b) : canonicalJson(a) === canonicalJson(b)) matched++;
  }
  const score = keys.size === 0 ? (isRecord(actual) && got.size === 0 ? 1 : 0) : Math.round((matched / keys.size) * 10_000) / 10_000;
  return { outputs: { score, success: score >= threshold } };
};
