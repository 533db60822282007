import { RE2JS } from "re2js";
import { invalidParameter } from "./evaluator-failure";

/**
 * A user's pattern compiled for RE2 (linear time: no pattern can stall the event loop). RE2 has
 * no backreferences or lookarounds; such a pattern is refused with the parser's reason.
 */
export function compileUserPattern(pattern: string, parameter: string, caseSensitive = true): RE2JS {
  try {
    return RE2JS.compile(pattern, caseSensitive ? 0 : RE2JS.CASE_INSENSITIVE);
  } catch (error) {
    throw invalidParameter(
      `parameter ${parameter} is not a pattern this service can run (RE2 syntax: no backreferences or lookarounds): ${(error as Error).message}`,
    );
  }
}

/** Whether the pattern matches anywhere in the text (Python's `re.search`). */
export const searches = (pattern: RE2JS, text: string): boolean => pattern.matcher(text).find();
