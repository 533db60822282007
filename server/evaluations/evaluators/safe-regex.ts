import { compileLinearPattern, type LinearPattern } from "@/server/core/linear-pattern";
import { invalidParameter } from "./evaluator-failure";

/**
 * A user's pattern compiled by the service's one linear-time engine (server/core/linear-pattern:
 * RE2, so no pattern can stall the event loop). RE2 has no backreferences or lookarounds; such a
 * pattern is refused with the parser's reason.
 */
export function compileUserPattern(pattern: string, parameter: string, caseSensitive = true): LinearPattern {
  try {
    return compileLinearPattern(pattern, caseSensitive ? "" : "i");
  } catch (error) {
    throw invalidParameter(
      `parameter ${parameter} is not a pattern this service can run (RE2 syntax: no backreferences or lookarounds): ${(error as Error).message}`,
    );
  }
}

/** Whether the pattern matches anywhere in the text (Python's `re.search`). */
export const searches = (pattern: LinearPattern, text: string): boolean => pattern.test(text);
