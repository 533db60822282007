import type { Parameters, SchemaNode } from "./types";

/** How the form edits one parameter, read from its JSON Schema. */
export type FieldKind =
  | { kind: "enum"; options: string[] }
  | { kind: "boolean" }
  | { kind: "number"; integer: boolean }
  | { kind: "text"; multiline: boolean }
  | { kind: "list" }
  | { kind: "messages" }
  | { kind: "model" }
  | { kind: "json" };

const typeOf = (node: SchemaNode) => (Array.isArray(node.type) ? node.type[0] : node.type);

/** Long free text reads better in a text area (code, a pattern over several lines). */
const MULTILINE = new Set(["code", "regex_pattern", "json_schema"]);

export function fieldKind(name: string, node: SchemaNode): FieldKind {
  const type = typeOf(node);
  if (name === "model" && type === "string") return { kind: "model" };
  if (Array.isArray(node.enum) && node.enum.every((v) => typeof v === "string"))
    return { kind: "enum", options: node.enum as string[] };
  if (type === "boolean") return { kind: "boolean" };
  if (type === "number" || type === "integer") return { kind: "number", integer: type === "integer" };
  if (type === "string") return { kind: "text", multiline: MULTILINE.has(name) };
  if (type === "array" && typeOf(node.items ?? {}) === "string") return { kind: "list" };
  if (type === "array" && node.items?.properties?.role && node.items.properties.content) return { kind: "messages" };
  return { kind: "json" };
}

/** A parameter's label: `correct_answer_key` → "Correct answer key". */
export function fieldLabel(name: string): string {
  const words = name.replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Parameters without the empty ones: an unset field means the template's default. */
export function withoutEmpty(parameters: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(parameters).filter(([, v]) => v !== undefined && v !== "" && !(Array.isArray(v) && v.length === 0)),
  );
}

/**
 * The parameters the form shows: the judge's connection is picked with its model, and an alias
 * (`deprecated` in the catalog) only when it holds a value, so the similarity evaluator shows one
 * threshold, not two.
 */
export function shownParameters(schema: SchemaNode, parameters: Parameters): [string, SchemaNode][] {
  return Object.entries(schema.properties ?? {}).filter(
    ([name, node]) =>
      !(name === "connection" && schema.properties?.model) && !(node.deprecated && parameters[name] === undefined),
  );
}
