/** A path into a JSON value: object keys and array indexes, as in `tools[0].name`. */
export type PathSegment = string | number;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;

/** `["tools", 0, "name"]` -> `tools[0].name` (the server's error path format). */
export function formatPath(segments: readonly PathSegment[]): string {
  let out = "";
  for (const segment of segments) {
    if (typeof segment === "number") out += `[${segment}]`;
    else if (IDENTIFIER.test(segment)) out += out === "" ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}

/** `tools[0].name` -> `["tools", 0, "name"]`; the inverse of `formatPath`. */
export function parsePath(path: string): PathSegment[] {
  const segments: PathSegment[] = [];
  const pattern = /([^.[\]]+)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/g;
  for (const match of path.matchAll(pattern)) {
    if (match[1] !== undefined) segments.push(match[1]);
    else if (match[2] !== undefined) segments.push(Number(match[2]));
    else segments.push(JSON.parse(match[3]) as string);
  }
  return segments;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function getIn(value: unknown, segments: readonly PathSegment[]): unknown {
  let current = value;
  for (const segment of segments) {
    if (typeof segment === "number") {
      if (!Array.isArray(current)) return undefined;
      current = current[segment];
    } else {
      if (!isPlainObject(current)) return undefined;
      current = current[segment];
    }
  }
  return current;
}

/**
 * A copy of `value` with `next` at `segments`; objects on the way are created when missing and
 * copied when present, so keys keep their order and nothing else is shared mutably.
 * `undefined` removes the key.
 */
export function setIn(value: unknown, segments: readonly PathSegment[], next: unknown): unknown {
  if (segments.length === 0) return next;
  const [head, ...rest] = segments;
  if (typeof head === "number") {
    const array = Array.isArray(value) ? [...value] : [];
    array[head] = setIn(array[head], rest, next);
    return array;
  }
  const object: Record<string, unknown> = isPlainObject(value) ? { ...value } : {};
  const child = setIn(object[head], rest, next);
  if (child === undefined) delete object[head];
  else object[head] = child;
  return object;
}
