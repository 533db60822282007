import { invalidParameter } from "./evaluator-failure";

export const TEMPLATE_FORMATS = ["curly", "mustache", "fstring"] as const;
export type TemplateFormat = (typeof TEMPLATE_FORMATS)[number];

// {{ name }} / {{{ name }}} (curly, mustache) and {name} (fstring): a name or a dotted path.
const DOUBLE = /\{\{\{?\s*([A-Za-z_][\w-]*(?:\.[\w-]+)*)\s*\}?\}\}/g;
const SINGLE = /\{\{|\}\}|\{([A-Za-z_]\w*(?:\.\w+)*)\}/g;
// Mustache sections, partials and comments: not rendered here, so refused rather than sent as text.
const MUSTACHE_TAG = /\{\{\s*[#^/>!&]/;

/** A context value as prompt text: strings as they are, anything else as JSON. */
const asText = (value: unknown) => (typeof value === "string" ? value : (JSON.stringify(value) ?? ""));

function lookup(context: Record<string, unknown>, path: string): { found: boolean; value?: unknown } {
  let current: unknown = context;
  for (const step of path.split(".")) {
    if (typeof current !== "object" || current === null || !Object.hasOwn(current, step)) return { found: false };
    current = (current as Record<string, unknown>)[step];
  }
  return { found: true, value: current };
}

/**
 * Fills a prompt's placeholders from the context. curly and mustache write `{{name}}` (mustache
 * also `{{{name}}}`; nothing is HTML-escaped, this is a prompt); fstring writes `{name}`, with
 * `{{`/`}}` for literal braces and any other brace left as text (JSON examples in a prompt). A
 * placeholder the context lacks is an error naming what it has: an empty hole would make the
 * judge grade blind.
 */
export function renderTemplate(
  text: string,
  format: TemplateFormat,
  context: Record<string, unknown>,
  where: string,
): string {
  const fill = (whole: string, path: string | undefined): string => {
    if (path === undefined) return whole === "{{" ? "{" : "}";
    const hit = lookup(context, path);
    if (!hit.found) {
      throw invalidParameter(
        `${where} uses the placeholder ${whole}, which the render context does not have; available: ${Object.keys(context).join(", ")}`,
      );
    }
    return asText(hit.value);
  };
  if (format !== "fstring" && MUSTACHE_TAG.test(text)) {
    throw invalidParameter(
      `${where} uses a mustache section, partial or comment tag ({{#…}}, {{^…}}, {{/…}}, {{>…}}, {{!…}}); only {{name}} placeholders are rendered`,
    );
  }
  return format === "fstring"
    ? text.replace(SINGLE, (whole, path) => fill(whole, path))
    : text.replace(DOUBLE, (whole, path) => fill(whole, path));
}
