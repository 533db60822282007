import { EvaluatorFailure } from "../evaluator-failure";
import { correctAnswer, outputText } from "../evaluator-values";
import type { EvaluatorHandler } from "../evaluator-types";
import { levenshteinSimilarity } from "../levenshtein";
import { boolParam, thresholdParam } from "../parameters";
import { sequenceRatio } from "../sequence-matcher";

/** Both measures take time in the product of the lengths; past this they would stall the worker. */
export const MAX_COMPARED_CHARACTERS = 20_000;

const similarity =
  (measure: (a: string, b: string) => number, thresholdNames: string[]): EvaluatorHandler =>
  (call) => {
    const fold = boolParam(call.parameters, "case_sensitive", true) ? (s: string) => s : (s: string) => s.toLowerCase();
    const threshold = thresholdParam(call.parameters, thresholdNames);
    const answer = correctAnswer(call);
    const expected = fold(typeof answer === "string" ? answer : JSON.stringify(answer));
    const actual = fold(outputText(call.request.outputs));
    const longest = Math.max(expected.length, actual.length);
    if (longest > MAX_COMPARED_CHARACTERS) {
      throw new EvaluatorFailure("input_too_large", `texts of ${longest} characters are too long to compare (at most ${MAX_COMPARED_CHARACTERS}); use semantic similarity or an LLM judge for long texts`);
    }
    const score = measure(actual, expected);
    return { outputs: { score, success: score >= threshold } };
  };

/** `auto_similarity_match`: difflib's SequenceMatcher ratio; `threshold` or `similarity_threshold`. */
export const similarityMatch = similarity(sequenceRatio, ["threshold", "similarity_threshold"]);

/** `auto_levenshtein_distance`: 1 − edit distance / longer length. */
export const levenshteinMatch = similarity(levenshteinSimilarity, ["threshold"]);
