import { getIn, isPlainObject, setIn, type PathSegment } from "./json-path";

/**
 * The form edits the template in place, field by field: it reads and writes these paths and
 * leaves every other key (mcps, skills, extras, connection...) exactly as the JSON view has it.
 */
export const FIELD_PATHS = {
  agentsMd: ["instructions", "agents_md"],
  provider: ["llm", "provider"],
  model: ["llm", "model"],
  tools: ["tools"],
  runnerDefault: ["runner", "permissions", "default"],
  harnessKind: ["harness", "kind"],
  sandboxKind: ["sandbox", "kind"],
} as const satisfies Record<string, readonly PathSegment[]>;

export type Template = Record<string, unknown>;
export type TextField = Exclude<keyof typeof FIELD_PATHS, "tools">;

/** A string field's value, or undefined when the template omits it (its default applies). */
export function readText(template: Template, field: TextField): string | undefined {
  const value = getIn(template, FIELD_PATHS[field]);
  return typeof value === "string" ? value : undefined;
}

/** Sets a string field; undefined removes the key, null writes an explicit null (llm.provider). */
export function writeText(template: Template, field: TextField, value: string | null | undefined): Template {
  return setIn(template, FIELD_PATHS[field], value) as Template;
}

/** Sets provider and model together: a provider's curated list decides which models make sense. */
export function writeModel(template: Template, provider: string | null, model: string): Template {
  return writeText(writeText(template, "provider", provider), "model", model);
}

export function readTools(template: Template): unknown[] {
  const tools = getIn(template, FIELD_PATHS.tools);
  return Array.isArray(tools) ? tools : [];
}

export function addTool(template: Template, entry: Record<string, unknown>): Template {
  return setIn(template, FIELD_PATHS.tools, [...readTools(template), entry]) as Template;
}

export function removeTool(template: Template, index: number): Template {
  return setIn(template, FIELD_PATHS.tools, readTools(template).filter((_, i) => i !== index)) as Template;
}

/** Sets one key of one tool entry; undefined removes the key (a permission back to "inherit"). */
export function writeToolField(template: Template, index: number, key: string, value: unknown): Template {
  return setIn(template, [...FIELD_PATHS.tools, index, key], value) as Template;
}

export interface ToolSummary {
  type: string;
  /** What the tool is called, as the model or the person sees it. */
  label: string;
  permission: string | null;
}

export function summarizeTool(entry: unknown): ToolSummary {
  if (!isPlainObject(entry)) return { type: "invalid", label: "Not an object", permission: null };
  const str = (key: string) => (typeof entry[key] === "string" && entry[key] !== "" ? (entry[key] as string) : undefined);
  const type = str("type") ?? "unknown";
  const label =
    type === "gateway"
      ? (str("name") ?? [str("integration"), str("action")].filter(Boolean).join(" · "))
      : type === "reference"
        ? (str("name") ?? str("slug"))
        : type === "platform"
          ? str("op")
          : str("name");
  return { type, label: label || "Unnamed", permission: str("permission") ?? null };
}

/** The built-in names the template lists, so the add menu offers only the missing ones. */
export function builtinNamesIn(template: Template): Set<string> {
  return new Set(
    readTools(template)
      .filter((t): t is Record<string, unknown> => isPlainObject(t) && t.type === "builtin" && typeof t.name === "string")
      .map((t) => t.name as string),
  );
}
