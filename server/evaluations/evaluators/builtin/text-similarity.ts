import { EvaluatorFailure } from "../evaluator-failure";
import { correctAnswer, outputText } from "../evaluator-values";
import type { EvaluatorHandler } from "../evaluator-types";
import { levenshteinSimilarity } from "../levenshtein";
import { boolParam, thresholdParam } from "../parameters";
import { sequenceRatio } from "../sequence-matcher";

/**
 * Both measures can take time in the product of the lengths, on the event loop: past these they
 * would stall the worker (difflib's junk heuristic keeps natural text fast; edit distance never
 * skips a cell, so its cap is on the product: 2,000 × 2,000 characters took 74 ms per call on
 * the shared 2-core test machine under load, `npm run bench -- evaluators`).
 */
export const MAX_SIMILARITY_CHARACTERS = 20_000;
export const MAX_LEVENSHTEIN_CELLS = 4_000_000;

const similarity =
  (
    measure: (a: string, b: string) => number,
    thresholdNames: string[],
    tooLong: (a: number, b: number) => boolean,
  ): EvaluatorHandler =>
  (call) => {
    const fold = boolParam(call.parameters, "case_sensitive", true) ? (s: string) => s : (s: string) => s.toLowerCase();
    const threshold = thresholdParam(call.parameters, thresholdNames);
    const answer = correctAnswer(call);
    const expected = fold(typeof answer === "string" ? answer : JSON.stringify(answer));
    const actual = fold(outputText(call.request.outputs));
    if (tooLong(expected.length, actual.length)) {
      throw new EvaluatorFailure(
        "input_too_large",
        `texts of ${actual.length} and ${expected.length} characters are too long to compare this way; use semantic similarity or an LLM judge for long texts`,
      );
    }
    const score = measure(actual, expected);
    return { outputs: { score, success: score >= threshold } };
  };

/** `auto_similarity_match`: difflib's SequenceMatcher ratio; `threshold` or `similarity_threshold`. */
export const similarityMatch = similarity(
  sequenceRatio,
  ["threshold", "similarity_threshold"],
  (a, b) => Math.max(a, b) > MAX_SIMILARITY_CHARACTERS,
);

/** `auto_levenshtein_distance`: 1 − edit distance / longer length. */
export const levenshteinMatch = similarity(
  levenshteinSimilarity,
  ["threshold"],
  (a, b) => a * b > MAX_LEVENSHTEIN_CELLS,
);
