import { BadRequestError } from "./errors";

/**
 * How deep a request's JSON may nest. Values are walked recursively in many places (span
 * attributes, id handling, schemas, JSON.stringify): bounding the depth where a body is parsed
 * keeps every later walk far from the stack limit. Real payloads stay well under it.
 */
export const MAX_JSON_DEPTH = 128;

/** Throws a 400 `too_deep` when `value` nests deeper than `max`. */
export function assertJsonDepth(value: unknown, what: string, max = MAX_JSON_DEPTH): void {
  if (!jsonDepthWithin(value, max)) throw tooDeep(what, max);
}

/** Whether `value` nests at most `max` levels; iterative, so the check itself cannot overflow. */
export function jsonDepthWithin(value: unknown, max = MAX_JSON_DEPTH): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (current === null || typeof current !== "object") continue;
    if (depth > max) return false;
    for (const child of Array.isArray(current) ? current : Object.values(current)) {
      if (child !== null && typeof child === "object") stack.push([child, depth + 1]);
    }
  }
  return true;
}

/** The 400 for a value too deep to walk (also what a decoder's stack overflow is turned into). */
export function tooDeep(what: string, max = MAX_JSON_DEPTH): BadRequestError {
  return new BadRequestError(`${what} nests deeper than ${max} levels; flatten it`, "too_deep");
}
