/**
 * The small template that maps a payload into an agent's input: `{{ path }}` in a string is the
 * value at that dotted path of the payload (`{{ issue.title }}`, `{{ items.0.id }}`); a string
 * value is inserted as is, anything else as JSON, a missing path as an empty string. `{{ $ }}` is
 * the whole payload. Pure.
 */
const PLACEHOLDER = /\{\{\s*([$A-Za-z0-9_.-]+)\s*\}\}/g;

export function valueAt(payload: unknown, path: string): unknown {
  if (path === "$") return payload;
  let current: unknown = payload;
  for (const key of path.replace(/^\$\./, "").split(".")) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

export function fillTemplate(text: string, payload: unknown): string {
  return text.replace(PLACEHOLDER, (_, path: string) => {
    const value = valueAt(payload, path);
    if (value === undefined || value === null) return "";
    return typeof value === "string" ? value : JSON.stringify(value);
  });
}

/** One condition of a trigger's filter: the value at `path` equals `equals`, or is one of `in`, or `exists`. */
export interface PayloadCondition {
  path: string;
  equals?: unknown;
  in?: unknown[];
  exists?: boolean;
}

/** Every condition holds (an empty filter lets everything through). */
export function matchesFilter(payload: unknown, filter: readonly PayloadCondition[] | null | undefined): boolean {
  return (filter ?? []).every((condition) => {
    const value = valueAt(payload, condition.path);
    if (condition.exists !== undefined && (value !== undefined) !== condition.exists) return false;
    if (condition.equals !== undefined && JSON.stringify(value) !== JSON.stringify(condition.equals)) return false;
    if (condition.in !== undefined && !condition.in.some((v) => JSON.stringify(v) === JSON.stringify(value)))
      return false;
    return true;
  });
}
