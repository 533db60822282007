import { InvalidAgentTemplateError, validateAgentTemplate, type AgentTemplate } from "@/server/agent-template";
import type { Executor } from "@/server/db";
import { resolveEmbeds } from "@/server/versioning";

export interface CheckedAgentTemplate {
  /** Fully defaulted, embeds resolved: what a run or the editor reads. */
  template: AgentTemplate;
  /** As sent (embeds kept), minus permissions dropped from builtin tools: what a revision stores. */
  stored: Record<string, unknown>;
  warnings: string[];
}

/**
 * Resolves `@svc.embed` entries (tools and skills may be embeds) and validates the result.
 * Errors carry paths from the request body's point of view, under `pathPrefix`.
 */
export async function checkAgentTemplate(
  db: Executor,
  projectId: string,
  raw: unknown,
  pathPrefix = "",
  options: { resolve?: boolean } = {},
): Promise<CheckedAgentTemplate> {
  const isObject = typeof raw === "object" && raw !== null && !Array.isArray(raw);
  // Without resolution an embed stays an object where the schema wants a value: a 400 naming it.
  const resolved =
    isObject && options.resolve !== false
      ? flattenEmbeddedLists((await resolveEmbeds(db, projectId, raw as Record<string, unknown>)).data)
      : raw;
  const result = validateAgentTemplate(resolved);
  if (!result.ok) {
    throw new InvalidAgentTemplateError(
      result.errors.map((e) => ({ ...e, path: e.path ? `${pathPrefix}${e.path}` : pathPrefix.replace(/\.$/, "") })),
    );
  }
  const stored = dropBuiltinPermissionsFromRaw(raw as Record<string, unknown>);
  return { template: result.template, stored, warnings: result.warnings.map((w) => `${pathPrefix}${w}`) };
}

/** An embed in `tools` or `skills` may select a whole list; its entries join the surrounding list. */
function flattenEmbeddedLists(data: Record<string, unknown>): Record<string, unknown> {
  const out = { ...data };
  for (const key of ["tools", "skills"]) {
    if (Array.isArray(out[key])) out[key] = (out[key] as unknown[]).flatMap((e) => (Array.isArray(e) ? e : [e]));
  }
  return out;
}

/** The stored form keeps embeds as sent; only inline builtin entries can carry a dropped permission. */
function dropBuiltinPermissionsFromRaw(raw: Record<string, unknown>): Record<string, unknown> {
  if (!Array.isArray(raw.tools)) return raw;
  const tools = raw.tools.map((entry) => {
    const isBuiltin = typeof entry === "object" && entry !== null && (entry as { type?: unknown }).type === "builtin";
    if (!isBuiltin || (entry as { permission?: unknown }).permission == null) return entry;
    const { permission: _dropped, ...rest } = entry as Record<string, unknown>;
    return rest;
  });
  return { ...raw, tools };
}
