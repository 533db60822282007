import { invalidParameter } from "./evaluator-failure";

/**
 * A path into a JSON value, written as a dot path (`a.b.0`), JSONPath (`$.a.b[0]`, `$['a']`) or
 * a JSON pointer (`/a/b/0`). Only plain member and index steps: no wildcards or filters.
 */
export function parsePath(path: string, parameter: string): string[] {
  if (path === "" || path === "$" || path === "/") return [];
  if (path.startsWith("/"))
    return path
      .slice(1)
      .split("/")
      .map((step) => step.replace(/~1/g, "/").replace(/~0/g, "~"));
  if (path.startsWith("$")) {
    const steps: string[] = [];
    const step = /\.([^.[\]]+)|\[(\d+)\]|\['([^']*)'\]|\["([^"]*)"\]/y;
    let at = 1;
    while (at < path.length) {
      step.lastIndex = at;
      const match = step.exec(path);
      if (!match)
        throw invalidParameter(
          `${parameter}: "${path}" is not a JSONPath this service reads (only $.name, $[0] and $['name'] steps; no wildcards or filters)`,
        );
      steps.push(match[1] ?? match[2] ?? match[3] ?? match[4]);
      at = step.lastIndex;
    }
    return steps;
  }
  return path.split(".");
}

/** The value at the path, or `found: false` when a step is missing. */
export function selectPath(value: unknown, steps: string[]): { found: boolean; value?: unknown } {
  let current = value;
  for (const step of steps) {
    if (Array.isArray(current) && /^\d+$/.test(step) && Number(step) < current.length) current = current[Number(step)];
    else if (typeof current === "object" && current !== null && !Array.isArray(current) && Object.hasOwn(current, step))
      current = (current as Record<string, unknown>)[step];
    else return { found: false };
  }
  return { found: true, value: current };
}
