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

/** How far a depth scan read before it ended: the whole input, or the byte where the limit was passed. */
export interface DepthScan {
  tooDeep: boolean;
  bytesRead: number;
}

/**
 * The nesting of JSON text, counted on the bytes before anything is parsed: `{` and `[` outside
 * strings open a level. It stops at the first byte past `max`, so a body nested thousands of
 * levels deep is refused after reading its first few kilobytes, not after being parsed whole.
 * Text that is not valid JSON is left to the parser, which says what is wrong with it.
 */
export function scanJsonDepth(text: Uint8Array, max = MAX_JSON_DEPTH): DepthScan {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const byte = text[i];
    if (inString) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) inString = true;
    else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      if (++depth > max) return { tooDeep: true, bytesRead: i + 1 };
    } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) depth--;
  }
  return { tooDeep: false, bytesRead: text.length };
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/** The 400 for a value too deep to walk (also what a decoder's stack overflow is turned into). */
export function tooDeep(what: string, max = MAX_JSON_DEPTH): BadRequestError {
  return new BadRequestError(`${what} nests deeper than ${max} levels; flatten it`, "too_deep");
}
