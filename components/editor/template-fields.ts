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

/** Sets provider and model together: a provider's curated list decides which models make sense. A stored custom provider named by `llm.connection` no longer applies. */
export function writeModel(template: Template, provider: string | null, model: string): Template {
  const withoutCustom =
    readCustomProvider(template) === undefined
      ? template
      : (setIn(template, ["llm", "connection"], undefined) as Template);
  return writeText(writeText(withoutCustom, "provider", provider), "model", model);
}

/** The stored custom provider `llm.connection.slug` names, when the template names one. */
export function readCustomProvider(template: Template): string | undefined {
  const slug = getIn(template, ["llm", "connection", "slug"]);
  return typeof slug === "string" ? slug : undefined;
}

/** A model a stored custom provider lists: `llm.connection.slug` and the model, no catalog provider. */
export function writeCustomModel(template: Template, slug: string, model: string): Template {
  const withoutProvider = setIn(template, ["llm", "provider"], undefined) as Template;
  return writeText(setIn(withoutProvider, ["llm", "connection"], { slug }) as Template, "model", model);
}

/** One of `llm.extras` (model settings such as temperature); undefined removes it. */
export function readLlmExtra(template: Template, key: string): unknown {
  return getIn(template, ["llm", "extras", key]);
}

export function writeLlmExtra(template: Template, key: string, value: unknown): Template {
  const next = setIn(template, ["llm", "extras", key], value) as Template;
  const extras = getIn(next, ["llm", "extras"]);
  // The last setting removed leaves no empty `extras: {}` behind: the template keeps what was set.
  return isPlainObject(extras) && Object.keys(extras).length === 0
    ? (setIn(next, ["llm", "extras"], undefined) as Template)
    : next;
}

export function readTools(template: Template): unknown[] {
  const tools = getIn(template, FIELD_PATHS.tools);
  return Array.isArray(tools) ? tools : [];
}

export function addTool(template: Template, entry: Record<string, unknown>): Template {
  return setIn(template, FIELD_PATHS.tools, [...readTools(template), entry]) as Template;
}

export function removeTool(template: Template, index: number): Template {
  return setIn(
    template,
    FIELD_PATHS.tools,
    readTools(template).filter((_, i) => i !== index),
  ) as Template;
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
  const str = (key: string) =>
    typeof entry[key] === "string" && entry[key] !== "" ? (entry[key] as string) : undefined;
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
      .filter(
        (t): t is Record<string, unknown> => isPlainObject(t) && t.type === "builtin" && typeof t.name === "string",
      )
      .map((t) => t.name as string),
  );
}
