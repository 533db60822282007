import { outputText } from "../evaluator-values";
import type { EvaluatorCall, EvaluatorHandler } from "../evaluator-types";
import { boolParam, stringListParam, stringParam } from "../parameters";

/** The output text and a way to fold case when `case_sensitive` is false. */
function prepared(call: EvaluatorCall) {
  const fold = boolParam(call.parameters, "case_sensitive", true) ? (s: string) => s : (s: string) => s.toLowerCase();
  return { text: fold(outputText(call.request.outputs)), fold };
}

const singleTest =
  (parameter: string, test: (text: string, needle: string) => boolean): EvaluatorHandler =>
  (call) => {
    const needle = stringParam(call.parameters, parameter);
    const { text, fold } = prepared(call);
    return { outputs: { success: test(text, fold(needle)) } };
  };

/** `auto_starts_with` (`prefix`), `auto_ends_with` (`suffix`), `auto_contains` (`substring`). */
export const startsWith = singleTest("prefix", (text, prefix) => text.startsWith(prefix));
export const endsWith = singleTest("suffix", (text, suffix) => text.endsWith(suffix));
export const contains = singleTest("substring", (text, substring) => text.includes(substring));

const listTest =
  (every: boolean): EvaluatorHandler =>
  (call) => {
    const substrings = stringListParam(call.parameters, "substrings");
    const { text, fold } = prepared(call);
    const found = (s: string) => text.includes(fold(s));
    return { outputs: { success: every ? substrings.every(found) : substrings.some(found) } };
  };

/** `auto_contains_any` / `auto_contains_all` over `substrings` (a list of strings). */
export const containsAny = listTest(false);
export const containsAll = listTest(true);

/** `auto_contains_json`: the text from the first `{` to the last `}` parses as JSON. */
export const containsJson: EvaluatorHandler = (call) => {
  const text = outputText(call.request.outputs);
  const start = text.indexOf("{");
  const end = text.lastIndexOf("}");
  let success = false;
  if (start >= 0 && end > start) {
    try {
      JSON.parse(text.slice(start, end + 1));
      success = true;
    } catch {
      success = false;
    }
  }
  return { outputs: { success } };
};
