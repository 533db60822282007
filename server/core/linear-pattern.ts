import { RE2JS } from "re2js";

/** What a compiled pattern offers: the `RegExp` subset the callers use (ajv's `code.regExp` too). */
export interface LinearPattern {
  test(text: string): boolean;
}

/**
 * A regular expression from user input (a JSON Schema `pattern`, a trace filter, an evaluator
 * parameter), compiled by RE2: matching is linear in the text, so no pattern can stall the process
 * the way a backtracking engine does on `^(a+)+$`. RE2 has no backreferences or lookaround; such
 * a pattern does not compile and the caller refuses it. `flags` takes `i`, `m`, `s` (`u` and `g`
 * are accepted and change nothing: RE2 reads Unicode and `test` is stateless).
 */
export function compileLinearPattern(source: string, flags = ""): LinearPattern {
  let bits = 0;
  if (flags.includes("i")) bits |= RE2JS.CASE_INSENSITIVE;
  if (flags.includes("m")) bits |= RE2JS.MULTILINE;
  if (flags.includes("s")) bits |= RE2JS.DOTALL;
  const compiled = RE2JS.compile(source, bits);
  return { test: (text: string) => compiled.matcher(text).find() };
}

/** Why `source` cannot be used as a linear-time pattern, or undefined when it can. */
export function linearPatternError(source: string): string | undefined {
  try {
    compileLinearPattern(source);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}
