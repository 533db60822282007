/**
 * The one prompt renderer: application prompts (the `/v1` door, evaluation cells) and judge prompts
 * fill their placeholders here, so a prompt renders the same wherever it runs; so do automations'
 * messages and inputs from a firing's payload (`curly`).
 *
 * - `curly` and `mustache` write `{{name}}` or `{{{name}}}`, spaces allowed inside the braces.
 *   Nothing is HTML-escaped (this is a prompt, not a page). Mustache sections, inverted sections,
 *   partials, comments and `{{&name}}` are not rendered, so they are refused rather than sent as
 *   text.
 * - `fstring` writes `{name}`; `{{` and `}}` are literal braces, and any other brace stays text
 *   (a JSON example in a prompt survives).
 * - A name may be a dotted path (`{{inputs.country}}`); a key that itself holds the dots wins.
 *   Strings are inserted as they are, anything else as JSON.
 * - A placeholder the context does not have is the caller's error (an empty hole would change
 *   what the model is asked without anyone noticing).
 */
export const TEMPLATE_FORMATS = ["curly", "mustache", "fstring"] as const;
export type TemplateFormat = (typeof TEMPLATE_FORMATS)[number];

export type TemplateProblem =
  { kind: "missing"; placeholder: string; path: string } | { kind: "unsupported_tag"; tag: string };

const DOUBLE = /\{\{\{?\s*([\w-]+(?:\.[\w-]+)*)\s*\}?\}\}/g;
const SINGLE = /\{\{|\}\}|\{([A-Za-z_]\w*(?:\.\w+)*)\}/g;
const MUSTACHE_TAG = /\{\{\s*[#^/>!&][^}]*\}?\}\}/;

/** The first mustache tag a `curly` or `mustache` text holds that this renderer does not render. */
export function unsupportedTag(text: string, format: TemplateFormat): string | undefined {
  return format === "fstring" ? undefined : MUSTACHE_TAG.exec(text)?.[0];
}

/**
 * The value at a dotted path of `context`, as placeholders read it: a key that itself holds the
 * dots wins, each step must be an own key (an array index is one: `items.0.id`), so inherited
 * names (`constructor`, `toString`) are never found. Also what a filter on a payload reads
 * (automations), so a filter and a placeholder agree on what a payload holds.
 */
export function lookupPath(context: Record<string, unknown>, path: string): { found: boolean; value?: unknown } {
  if (Object.hasOwn(context, path)) return { found: true, value: context[path] };
  let current: unknown = context;
  for (const step of path.split(".")) {
    if (typeof current !== "object" || current === null || !Object.hasOwn(current, step)) return { found: false };
    current = (current as Record<string, unknown>)[step];
  }
  return { found: true, value: current };
}

const asText = (value: unknown) => (typeof value === "string" ? value : (JSON.stringify(value) ?? ""));

/** Fills `text`'s placeholders from `context`; `fail` turns a problem into the caller's error. */
export function renderTemplate(
  text: string,
  format: TemplateFormat,
  context: Record<string, unknown>,
  fail: (problem: TemplateProblem) => Error,
): string {
  const tag = unsupportedTag(text, format);
  if (tag) throw fail({ kind: "unsupported_tag", tag });
  const fill = (placeholder: string, path: string | undefined): string => {
    if (path === undefined) return placeholder === "{{" ? "{" : "}";
    const hit = lookupPath(context, path);
    if (!hit.found) throw fail({ kind: "missing", placeholder, path });
    return asText(hit.value);
  };
  return text.replace(format === "fstring" ? SINGLE : DOUBLE, (whole, path) => fill(whole, path));
}
