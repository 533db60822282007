import { outputText } from "../evaluator-values";
import type { EvaluatorHandler } from "../evaluator-types";
import { boolParam, stringParam } from "../parameters";
import { compileUserPattern, searches } from "../safe-regex";

/** `auto_regex_test`: the pattern is searched for in the output; success when found == regex_should_match. */
export const regexTest: EvaluatorHandler = (call) => {
  const pattern = compileUserPattern(
    stringParam(call.parameters, "regex_pattern"),
    "regex_pattern",
    boolParam(call.parameters, "case_sensitive", true),
  );
  const shouldMatch = boolParam(call.parameters, "regex_should_match", true);
  return { outputs: { success: searches(pattern, outputText(call.request.outputs)) === shouldMatch } };
};
