import { JSONPath } from "jsonpath-plus";

/**
 * The reference implementation's `inputs_fields`: a template over a firing's context
 * (`{event, subscription, scope}`) whose string leaves starting with `$` are JSONPath and with `/`
 * JSON Pointer (RFC 6901); other values are kept as they are, and a path that matches nothing gives
 * null. A result that is not an object is wrapped as `{value}`, as the reference wraps it. JSONPath
 * is evaluated with script expressions off (`eval: false`): a template is data, never code. Pure.
 */
export function resolveSelectorTemplate(template: unknown, context: Record<string, unknown>): Record<string, unknown> {
  const resolved = resolve(template, context);
  return typeof resolved === "object" && resolved !== null && !Array.isArray(resolved)
    ? (resolved as Record<string, unknown>)
    : { value: resolved };
}

function resolve(template: unknown, context: Record<string, unknown>): unknown {
  if (typeof template === "string") {
    if (template.startsWith("$")) return JSONPath({ path: template, json: context, wrap: false, eval: false }) ?? null;
    if (template.startsWith("/")) return pointer(template, context);
    return template;
  }
  if (Array.isArray(template)) return template.map((item) => resolve(item, context));
  if (typeof template === "object" && template !== null)
    return Object.fromEntries(Object.entries(template).map(([key, value]) => [key, resolve(value, context)]));
  return template;
}

/**
 * The first JSONPath leaf holding a script or filter expression (`?(...)`, `(...)`), which is never
 * evaluated: refused at save rather than failing every firing. Pure.
 */
export function unevaluatedSelector(template: unknown): string | undefined {
  if (typeof template === "string") return template.startsWith("$") && template.includes("(") ? template : undefined;
  const values = Array.isArray(template)
    ? template
    : typeof template === "object" && template !== null
      ? Object.values(template)
      : [];
  for (const value of values) {
    const found = unevaluatedSelector(value);
    if (found) return found;
  }
  return undefined;
}

/** RFC 6901: `/a/b~1c/0`, own keys only; a missing step gives null. */
function pointer(path: string, context: unknown): unknown {
  let at: unknown = context;
  for (const raw of path.slice(1).split("/")) {
    const key = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    if (typeof at !== "object" || at === null || !Object.hasOwn(at, key)) return null;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

/** Whether `inputs_fields` is a selector template rather than this service's `{messages}` / `{inputs}` input. */
export function isSelectorTemplate(value: unknown): boolean {
  if (typeof value === "string") return true;
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  return !("messages" in value) && !("inputs" in value);
}
