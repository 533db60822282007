const MAX_DEPTH = 10;

/**
 * Shapes a custom body from the delivery context: string leaves starting with `$` are JSONPath
 * (`$.event.attributes.references[0].id`), leaves starting with `/` are JSON Pointer
 * (`/event/event_type`), anything else is literal. A path that misses gives null; templates
 * nest up to 10 levels.
 */
export function resolvePayloadFields(template: unknown, context: unknown, depth = 0): unknown {
  if (depth > MAX_DEPTH) return null;
  if (typeof template === "string") {
    if (template.startsWith("$")) return lookup(context, jsonPathSegments(template));
    if (template.startsWith("/")) return lookup(context, pointerSegments(template));
    return template;
  }
  if (Array.isArray(template)) return template.map((item) => resolvePayloadFields(item, context, depth + 1));
  if (template && typeof template === "object") {
    return Object.fromEntries(
      Object.entries(template).map(([k, v]) => [k, resolvePayloadFields(v, context, depth + 1)]),
    );
  }
  return template;
}

function jsonPathSegments(path: string): string[] {
  // "$", "$.a.b", "$.a[0]", "$['a b']"
  const segments: string[] = [];
  const pattern = /\.([A-Za-z0-9_-]+)|\[(\d+)\]|\['([^']*)'\]|\["([^"]*)"\]/g;
  const rest = path.slice(1);
  let consumed = 0;
  for (const match of rest.matchAll(pattern)) {
    if (match.index !== consumed) return ["\u0000invalid"];
    segments.push(match[1] ?? match[2] ?? match[3] ?? match[4]);
    consumed = match.index + match[0].length;
  }
  return consumed === rest.length ? segments : ["\u0000invalid"];
}

function pointerSegments(pointer: string): string[] {
  return pointer
    .slice(1)
    .split("/")
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
}

function lookup(value: unknown, segments: string[]): unknown {
  let current = value;
  for (const segment of segments) {
    if (current === null || typeof current !== "object" || !Object.hasOwn(current, segment)) return null;
    current = (current as Record<string, unknown>)[segment];
  }
  return current === undefined ? null : current;
}
