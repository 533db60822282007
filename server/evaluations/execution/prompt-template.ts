import { promptTemplateSchema } from "@/server/agent-template";
import { BadRequestError } from "@/server/core/errors";
import type { z } from "zod";

export type PromptTemplate = z.output<typeof promptTemplateSchema> & { llm_config: { connection?: string } };

/**
 * The prompt of a prompt application revision (`data.parameters.prompt`), checked when the run
 * starts so that a prompt the runner cannot honour is refused before any cell runs.
 */
export function readPromptTemplate(revisionId: string, prompt: unknown): PromptTemplate {
  const parsed = promptTemplateSchema.safeParse(prompt);
  if (!parsed.success) {
    throw new BadRequestError(
      `application revision ${revisionId}: data.parameters.prompt is not a valid prompt (${parsed.error.issues[0]?.message})`,
      "invalid_prompt",
    );
  }
  if (parsed.data.template_format === "jinja2") {
    throw new BadRequestError(
      `application revision ${revisionId}: template_format jinja2 is not supported by the evaluation prompt runner; use curly ({{name}}) or fstring ({name})`,
      "unsupported_prompt",
    );
  }
  if (parsed.data.llm_config.response_format) {
    throw new BadRequestError(
      `application revision ${revisionId}: llm_config.response_format is not supported by the evaluation prompt runner; remove it`,
      "unsupported_prompt",
    );
  }
  const connection = (prompt as { llm_config?: { connection?: unknown } }).llm_config?.connection;
  return {
    ...parsed.data,
    llm_config: { ...parsed.data.llm_config, ...(typeof connection === "string" ? { connection } : {}) },
  };
}

const PLACEHOLDER = { curly: /\{\{\s*([\w.-]+)\s*\}\}/g, fstring: /\{([\w.-]+)\}/g } as const;

/** Fills `{{name}}` (or `{name}`) from the testcase's columns; a missing column is an error naming it. */
export function renderPrompt(
  template: PromptTemplate,
  columns: Record<string, unknown>,
): { role: string; content: string }[] {
  const pattern = PLACEHOLDER[template.template_format as "curly" | "fstring"];
  return template.messages.map((m) => ({
    role: m.role === "developer" ? "system" : m.role,
    content: m.content.replace(pattern, (_whole, name: string) => {
      if (!(name in columns))
        throw new PromptInputError(`the prompt uses {{${name}}} but the testcase has no column "${name}"`);
      const value = columns[name];
      return typeof value === "string" ? value : JSON.stringify(value);
    }),
  }));
}

export class PromptInputError extends Error {}
