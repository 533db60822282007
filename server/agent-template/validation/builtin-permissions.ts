import type { AgentTemplate } from "../template";

/** Defaulted form: a builtin entry's permission is not enforceable, so it reads as null (inherit). */
export function dropBuiltinPermissions(template: AgentTemplate): AgentTemplate {
  const tools = template.tools.map((tool) => (tool.type === "builtin" ? { ...tool, permission: null } : tool));
  return { ...template, tools };
}

/**
 * Stored form: the template exactly as sent (no defaults filled in, model not split), minus the
 * builtin permissions that were dropped. Storing what the person wrote keeps later default
 * changes flowing to templates that never chose a value. Call only on input that validated.
 */
export function storedTemplate(input: unknown): Record<string, unknown> {
  const stored = structuredClone(input) as Record<string, unknown>;
  const tools = stored.tools;
  if (!Array.isArray(tools)) return stored;
  for (const tool of tools as Record<string, unknown>[]) {
    if (tool.type === "builtin" && tool.permission != null) delete tool.permission;
  }
  return stored;
}
